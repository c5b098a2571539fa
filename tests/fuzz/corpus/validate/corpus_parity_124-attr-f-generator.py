# parity: f_generator is in INSPECT_ATTRIBUTES (RESTRICTEDPYTHON.md §4)
# restricted: reject
# default: reject
def f(fr):
    return fr.f_generator
