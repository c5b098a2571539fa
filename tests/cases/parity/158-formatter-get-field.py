# parity: string.Formatter().get_field with string keys only (CVE-2023-41039, CVE-2026-76825) passes the static policy (RestrictedPython's published advisories and gaps pyward must cover)
# restricted: accept
# default: reject
# (default rejects: the default rules add a string.Formatter check (PW309) on top of RestrictedPython's policy)
import string


def f():
    pass


obj, key = string.Formatter().get_field("0.__globals__", [f], {})
b = obj["__builtins__"]
