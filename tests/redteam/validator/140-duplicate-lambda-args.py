# attack: duplicate lambda parameter names (a compile-stage error)
f = lambda x, x: x
