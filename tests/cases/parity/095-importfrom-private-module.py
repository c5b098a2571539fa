# parity: RestrictedPython does not check the module of from-import, but _mod is not on pyward's import allow-list (RestrictedPython's name rule, check_name)
# restricted: reject
# default: reject
from _mod import x
