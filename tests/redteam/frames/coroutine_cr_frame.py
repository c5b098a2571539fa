# category: frames
# attack: coroutine cr_frame.f_back walk
# profile: basic
async def c():
    return 1
co = c()
print(co.cr_frame.f_back)
co.close()
