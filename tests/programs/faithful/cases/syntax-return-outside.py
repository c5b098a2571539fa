# faithful: full
x = 1
return x
