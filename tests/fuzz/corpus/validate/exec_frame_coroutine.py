# expect: error
async def c():
    pass
x = c()
print(x.cr_frame.f_globals)
