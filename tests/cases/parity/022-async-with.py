# parity: AsyncWith is rejected (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
async def f(cm):
    async with cm:
        pass
