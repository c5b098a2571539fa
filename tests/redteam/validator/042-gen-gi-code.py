# attack: read a generator's code object
g = (n for n in range(3))
print(g.gi_code.co_consts)
