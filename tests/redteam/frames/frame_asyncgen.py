# category: frames
# attack: frame asyncgen
# profile: basic
# verdict: error rejected
async def a():
    yield 1
x = a()
print(x.ag_frame.f_globals)
