# attack: walrus binding a private name
if (_n := 10) > 5:
    print(_n)
