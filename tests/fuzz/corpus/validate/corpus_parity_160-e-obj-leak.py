# parity: AttributeError.obj (CVE-2024-47532) is an ordinary attribute for the static policy (RESTRICTEDPYTHON.md §9,§10)
# restricted: accept
# default: accept
import string

try:
    string.nope
except AttributeError as e:
    real = e.obj
