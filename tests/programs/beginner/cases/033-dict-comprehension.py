prices = {"apple": 0.5, "pear": 0.75, "kiwi": 0.3, "mango": 1.5}
expensive = {k: v for k, v in prices.items() if v > 0.6}
doubled = {k: v * 2 for k, v in prices.items()}
by_price = dict(sorted(prices.items(), key=lambda kv: kv[1]))
print(expensive)
print(doubled)
print(list(by_price))
inverted = {v: k for k, v in prices.items()}
print(inverted[0.3])
