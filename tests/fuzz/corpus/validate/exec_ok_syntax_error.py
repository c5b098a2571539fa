# expect: error
# error-line: 4
x = 1
y = (
