# attack: an async list comprehension outside async def (a compile-stage error)
result = [x async for x in source]
