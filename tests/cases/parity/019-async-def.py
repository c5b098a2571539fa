# parity: AsyncFunctionDef is rejected (RestrictedPython's node-type policy)
# restricted: reject
# default: reject
async def f():
    return 1
