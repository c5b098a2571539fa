# category: frames
# attack: gi_code.co_consts and co_code of a generator
# profile: basic
def g():
    yield 1
print(g().gi_code.co_consts, g().gi_code.co_code)
