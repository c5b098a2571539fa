# expect: ok
# stdout: hello
print("hello")
