# parity: the whole dotted string is checked: math._x does not start with _ (and math's submodules are on the allow-list) (RESTRICTEDPYTHON.md §3)
# restricted: accept
# default: ?
import math._x
