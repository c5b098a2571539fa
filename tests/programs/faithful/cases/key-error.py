# faithful: full
def price(prices, item):
    return prices[item]


print(price({'apple': 1}, 'pear'))
