# attack: define a coroutine function (unguarded frame objects, event loop)
async def main():
    return 1
