# attack: event loop with subprocess and socket helpers
import asyncio

print(asyncio.get_event_loop_policy())
