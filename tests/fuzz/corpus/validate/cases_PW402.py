async def main():  # error (one for the whole function)
    await f()
    async for x in y:
        pass
