n = 1
n.x = 2
