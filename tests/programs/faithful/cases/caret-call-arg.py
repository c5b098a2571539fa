values = [1, 2]
size = len(values) + len(5)
