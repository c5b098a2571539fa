x = 5
x.append(1)
