# expect: error
async def a():
    yield 1
x = a()
print(x.ag_frame.f_globals)
