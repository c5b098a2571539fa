# parity: async list comprehension outside async def fails at compile, since is_async is never examined (RESTRICTEDPYTHON.md §1,§2)
# restricted: reject
# default: reject
xs = [x async for x in ys]
