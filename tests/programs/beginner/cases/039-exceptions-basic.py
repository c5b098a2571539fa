def safe_divide(a, b):
    try:
        result = a / b
    except ZeroDivisionError:
        print("Cannot divide", a, "by zero")
        return None
    else:
        return result
    finally:
        print("done dividing", a, "by", b)


print(safe_divide(10, 2))
print(safe_divide(5, 0))
