def calculate(a, op, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if b == 0:
            raise ZeroDivisionError("division by zero")
        return a / b
    raise ValueError(f"unknown operator {op}")


for expr in ["3 + 4", "10 / 4", "6 * 7", "1 / 0", "2 ^ 3"]:
    left, op, right = expr.split()
    try:
        print(expr, "=", calculate(float(left), op, float(right)))
    except (ZeroDivisionError, ValueError) as e:
        print(expr, "-> error:", e)
