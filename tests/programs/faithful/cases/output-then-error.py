# faithful: full
for i in range(3):
    print('line', i)
print(10 / (i - 2))
