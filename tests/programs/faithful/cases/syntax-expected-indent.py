# faithful: full
if True:
print(1)
