# parity: comprehension.is_async is never examined: an async generator expression at module level is accepted (RestrictedPython's node-type policy)
# restricted: accept
# default: ?
g = (x async for x in ys)
