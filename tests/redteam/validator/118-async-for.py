# attack: async for loop
async def f(items):
    async for x in items:
        print(x)
