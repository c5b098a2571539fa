# attack: rebind the _print_ collector factory
_print_ = None
print("x")
