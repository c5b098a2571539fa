# parity: AsyncFunctionDef is rejected (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
async def f():
    return 1
