# attack: bind a name the transformer uses for its temporaries
_tmp0 = [1, 2]
for a, b in [(3, 4)]:
    print(_tmp0, a, b)
