# error: the parenthesis is never closed
print('hi'
