cart = [("bread", 2.50, 2), ("milk", 1.20, 3), ("eggs", 3.10, 1), ("apples", 0.45, 6)]
subtotal = 0
for item, price, qty in cart:
    line_total = price * qty
    subtotal += line_total
    print(f"{item:8} {qty} x {price:5.2f} = {line_total:6.2f}")
tax = round(subtotal * 0.08, 2)
print(f"Subtotal: {subtotal:.2f}")
print(f"Tax:      {tax:.2f}")
print(f"Total:    {subtotal + tax:.2f}")
