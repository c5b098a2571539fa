from decimal import Decimal, ROUND_HALF_UP

price = Decimal("19.99")
qty = 3
subtotal = price * qty
tax = (subtotal * Decimal("0.0725")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
print("Subtotal:", subtotal)
print("Tax:", tax)
print("Total:", subtotal + tax)
print(0.1 + 0.2, Decimal("0.1") + Decimal("0.2"))
