# parity: comprehension.is_async is never examined: an async generator expression at module level is accepted (RESTRICTEDPYTHON.md §2)
# restricted: accept
# default: ?
g = (x async for x in ys)
