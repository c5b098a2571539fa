def make_change(cents):
    coins = [("quarter", 25), ("dime", 10), ("nickel", 5), ("penny", 1)]
    result = {}
    for name, value in coins:
        count, cents = divmod(cents, value)
        if count:
            result[name] = count
    return result


for amount in [87, 30, 4, 0]:
    print(amount, make_change(amount))
