class InsufficientStock(Exception):
    def __init__(self, item, wanted, have):
        super().__init__(f"wanted {wanted} {item}, only {have} left")
        self.item = item


stock = {"pens": 5, "paper": 100, "ink": 0}


def order(item, qty):
    have = stock.get(item, 0)
    if qty > have:
        raise InsufficientStock(item, qty, have)
    stock[item] -= qty
    return f"ordered {qty} {item}"


for item, qty in [("pens", 3), ("ink", 1), ("paper", 20), ("pens", 3)]:
    try:
        print(order(item, qty))
    except InsufficientStock as e:
        print("Problem:", e)
print(stock)
