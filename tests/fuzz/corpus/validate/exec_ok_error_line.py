# expect: error
# error-line: 4
def divide(a, b):
    return a / b

print("before")
divide(1, 0)
