# program: x = 6 / x * 7
# profile: basic
# verdict: ok
# timeout: 30
# result: 42
x = 6
x * 7
