# program: x = 1 / y = (
# profile: basic
# verdict: error rejected
# timeout: 30
# error-line: 7
x = 1
y = (
