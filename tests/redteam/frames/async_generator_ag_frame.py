# category: frames
# attack: async generator ag_frame
# profile: basic
async def ag():
    yield 1
a = ag()
print(a.ag_frame.f_globals)
