eval('1 + 2')  # error
exec('x = 1')  # error
e = eval  # ok: only calls are checked
obj.eval('x')  # ok: a method
