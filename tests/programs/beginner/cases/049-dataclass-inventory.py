from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    quantity: int = 0

    def total(self):
        return self.price * self.quantity


items = [Item("hammer", 12.5, 3), Item("nails", 0.05, 200), Item("saw", 20.0)]
for it in items:
    print(it)
print("Inventory value:", sum(it.total() for it in items))
print(Item("saw", 20.0) == items[2])
