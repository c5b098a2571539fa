data = open('data.txt').read()  # error
f = files.open()  # ok: a method
