def multiplier(factor):
    def multiply(x):
        return x * factor
    return multiply


double = multiplier(2)
triple = multiplier(3)
print(double(5), triple(5))
print([f(10) for f in (double, triple, multiplier(10))])
