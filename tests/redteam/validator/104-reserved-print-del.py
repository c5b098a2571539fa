# attack: delete the name print
del print
