def make_receipt(items, tax_rate):
    def line(name, price):
        return f"{name:<10}{price:>8.2f}"

    def tax(amount):
        return round(amount * tax_rate, 2)

    lines = [line(n, p) for n, p in items]
    subtotal = sum(p for n, p in items)
    lines.append(line("tax", tax(subtotal)))
    lines.append(line("TOTAL", subtotal + tax(subtotal)))
    return "\n".join(lines)


print(make_receipt([("soup", 4.25), ("salad", 6.5), ("juice", 3.0)], 0.1))
