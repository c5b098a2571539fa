class Pizza:
    count = 0

    def __init__(self, toppings):
        self.toppings = toppings
        Pizza.count += 1

    @classmethod
    def margherita(cls):
        return cls(["mozzarella", "tomato"])

    @staticmethod
    def is_vegetarian(toppings):
        return not any(t in ("ham", "salami") for t in toppings)

    def __repr__(self):
        return f"Pizza({self.toppings})"


p = Pizza.margherita()
q = Pizza(["ham", "pineapple"])
print(p, q)
print(Pizza.is_vegetarian(p.toppings), Pizza.is_vegetarian(q.toppings))
print("Pizzas made:", Pizza.count)
