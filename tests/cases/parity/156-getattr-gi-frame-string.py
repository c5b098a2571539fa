# parity: getattr(g, "gi_frame") (#285) is not seen statically; safer_getattr stops it at run time (RestrictedPython's published advisories and gaps pyward must cover)
# restricted: accept
# default: accept
g = (x for x in [1])
fr = getattr(g, "gi_frame")
