# expect: ok
# result: 42
x = 6
x * 7
