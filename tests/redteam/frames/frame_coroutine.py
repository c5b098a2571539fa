# category: frames
# attack: frame coroutine
# profile: basic
# verdict: error rejected
async def c():
    pass
x = c()
print(x.cr_frame.f_globals)
