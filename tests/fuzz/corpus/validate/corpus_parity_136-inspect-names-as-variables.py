# parity: INSPECT_ATTRIBUTES names may still be used as plain variables (RESTRICTEDPYTHON.md §4)
# restricted: accept
# default: accept
gi_frame = 1
f_back = gi_frame + 1
tb_frame = [f_back]
