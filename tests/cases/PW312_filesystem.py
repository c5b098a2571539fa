import io
s = io.StringIO("a,b\n1,2\n")  # ok
b = io.BytesIO(b"x")  # ok
t = io.TextIOWrapper(b, encoding="utf-8")  # ok
io.open("data.txt")  # error
io.FileIO("data.txt")  # error
io.open_code("data.txt")  # error
