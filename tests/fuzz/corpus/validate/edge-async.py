async def f():
    async with a as b:
        async for i in b:
            await i
    return [j async for j in b]
