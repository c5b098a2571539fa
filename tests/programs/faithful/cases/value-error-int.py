# faithful: full
n = int("abc")
