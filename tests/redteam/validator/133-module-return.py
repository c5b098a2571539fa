# attack: return at module level (a compile-stage error)
x = 1
return x
