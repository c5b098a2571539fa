# category: network
# attack: asyncio.open_connection to the listener
# profile: basic
import asyncio
asyncio.run(asyncio.open_connection("127.0.0.1", @PORT@))
