from functools import reduce
import operator

numbers = [1, 2, 3, 4, 5, 6]
product = reduce(operator.mul, numbers)
print("product:", product)
longest = reduce(lambda a, b: a if len(a) >= len(b) else b, ["hi", "hello", "hey"])
print("longest:", longest)
print(reduce(lambda acc, n: acc * 10 + n, [4, 0, 9, 6]))
