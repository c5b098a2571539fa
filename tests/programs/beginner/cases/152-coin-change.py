def min_coins(amount, coins):
    best = [0] + [None] * amount
    for a in range(1, amount + 1):
        options = [best[a - c] for c in coins if c <= a and best[a - c] is not None]
        best[a] = min(options) + 1 if options else None
    return best[amount]


print(min_coins(63, [1, 5, 10, 25]))
print(min_coins(6, [1, 3, 4]))
print(min_coins(7, [2, 4]))
