# attack: async with statement
async def f(lock):
    async with lock:
        print(1)
