# parity: AnnAssign has no visitor; default accepts annotated assignment (SPEC §4) (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: accept
x: int = 1
