# parity: getattr(g, "gi_frame") (#285) is not seen statically; safer_getattr stops it at run time (RESTRICTEDPYTHON.md §9,§10)
# restricted: accept
# default: accept
g = (x for x in [1])
fr = getattr(g, "gi_frame")
