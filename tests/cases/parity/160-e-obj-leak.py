# parity: AttributeError.obj (CVE-2024-47532) is an ordinary attribute for the static policy (RestrictedPython's published advisories and gaps pyward must cover)
# restricted: accept
# default: accept
import string

try:
    string.nope
except AttributeError as e:
    real = e.obj
