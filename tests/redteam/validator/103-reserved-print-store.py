# attack: rebind print, which the transformer rewrites
print = lambda *args: None
