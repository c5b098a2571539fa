# parity: AsyncFor is rejected (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
async def f(xs):
    async for x in xs:
        pass
