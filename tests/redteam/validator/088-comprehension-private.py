# attack: private name as a comprehension variable
print([_x * 2 for _x in range(3)])
