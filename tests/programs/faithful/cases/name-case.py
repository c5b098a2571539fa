Total = 3
print(total)
