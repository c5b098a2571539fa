# attack: the same frame walk from a generator expression
g = (x for x in [1])
print(g.gi_frame.f_globals["__builtins__"])
