defaults = {"color": "blue", "size": "M", "qty": 1}
order = {"size": "L", "qty": 3}
merged = {**defaults, **order}
print(merged)
combined = defaults | {"gift": True}
print(combined)
defaults.update(order)
print(defaults == merged)
