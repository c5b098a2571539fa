# faithful: full
items = []
items.apend(1)
