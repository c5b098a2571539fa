# category: resources
# attack: math.factorial(10**8) then str
# profile: basic
# timeout: 2
import math
print(len(str(math.factorial(10 ** 8))))
