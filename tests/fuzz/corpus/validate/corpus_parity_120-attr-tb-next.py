# parity: tb_next is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
def f(tb):
    return tb.tb_next
