# program: print("hello")
# profile: basic
# verdict: ok
# timeout: 30
# stdout: hello
print("hello")
