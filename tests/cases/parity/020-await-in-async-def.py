# parity: Await inside async def is rejected (the def already is) (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
async def f(x):
    return await x
