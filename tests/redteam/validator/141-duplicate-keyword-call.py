# attack: the same keyword passed twice (a compile-stage error)
print(sep="", sep=" ")
