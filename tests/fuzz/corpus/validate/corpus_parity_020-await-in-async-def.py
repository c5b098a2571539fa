# parity: Await inside async def is rejected (the def already is) (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
async def f(x):
    return await x
