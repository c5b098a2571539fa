# parity: AsyncFor is rejected (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
async def f(xs):
    async for x in xs:
        pass
