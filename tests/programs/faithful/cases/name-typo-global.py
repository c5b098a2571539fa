# faithful: full
total = 10
print(totl)
