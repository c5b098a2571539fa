# attack: loop variable with a private name
for _i in range(3):
    print(_i)
