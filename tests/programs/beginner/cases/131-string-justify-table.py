rows = [("Item", "Qty", "Price"), ("Notebook", "3", "4.50"), ("Pen", "10", "0.99"), ("Backpack", "1", "29.00")]
widths = [max(len(r[i]) for r in rows) for i in range(3)]
for r in rows:
    print(r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2].rjust(widths[2]))
print("-" * (sum(widths) + 2))
