g.gi_frame  # error
agen.ag_frame  # ok in restricted (as in RestrictedPython)
