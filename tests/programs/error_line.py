# program: error line
# profile: basic
# verdict: error
# timeout: 30
# error-line: 7
def divide(a, b):
    return a / b

print("before")
divide(1, 0)
