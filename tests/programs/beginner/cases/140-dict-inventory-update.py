inventory = {"apples": 10, "bananas": 5, "oranges": 0}
deliveries = [("apples", 5), ("kiwis", 12), ("bananas", 7)]
sales = [("apples", 8), ("bananas", 2)]
for fruit, n in deliveries:
    inventory[fruit] = inventory.get(fruit, 0) + n
for fruit, n in sales:
    inventory[fruit] -= n
out_of_stock = [f for f, n in inventory.items() if n == 0]
print(inventory)
print("Out of stock:", out_of_stock)
