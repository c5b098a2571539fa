# attack: walk frames from a coroutine object
def make(coro):
    return coro.cr_frame.f_back.f_globals


print(make)
