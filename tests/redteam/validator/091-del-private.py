# attack: delete a private name
_x = 1
del _x
