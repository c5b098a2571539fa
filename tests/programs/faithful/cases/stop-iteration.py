# faithful: full
it = iter([])
next(it)
