name = "Widget"
price = 1234.5678
qty = 42
ratio = 0.8765
print(f"{name:>10}|{name:<10}|{name:^10}|")
print(f"{price:,.2f}")
print(f"{qty:05d}")
print(f"{ratio:.1%}")
print(f"{255:x} {255:o} {255:b}")
print(f"{qty=}")
print(f"{'nested':*^16}")
