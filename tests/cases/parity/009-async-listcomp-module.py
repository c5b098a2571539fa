# parity: async list comprehension outside async def fails at compile, since is_async is never examined (RestrictedPython's compile pipeline and node-type policy)
# restricted: reject
# default: reject
xs = [x async for x in ys]
