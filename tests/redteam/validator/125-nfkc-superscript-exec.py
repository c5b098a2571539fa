# attack: a modifier letter e at the start normalises to exec
ᵉxec("print('escaped')")
