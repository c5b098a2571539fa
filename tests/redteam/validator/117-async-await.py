# attack: await inside a coroutine
async def inner():
    return 1


async def outer():
    return await inner()
