# parity: AsyncWith is rejected (RESTRICTEDPYTHON.md §2)
# restricted: reject
# default: reject
async def f(cm):
    async with cm:
        pass
