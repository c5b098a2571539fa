# error: the byte after caf is Latin-1, not UTF-8
s = "café"
