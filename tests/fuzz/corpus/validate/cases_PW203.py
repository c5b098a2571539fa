print(globals())  # error
v = vars()  # error
help(len)  # error
print(len([1]))  # ok
