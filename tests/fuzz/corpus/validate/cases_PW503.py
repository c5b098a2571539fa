print = 3  # error
del printed  # error
x = builtins  # error
print('hi')  # ok: reading print
