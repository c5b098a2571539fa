ages = [23, 35, 17, 42, 19]
print("Anyone under 18?", any(a < 18 for a in ages))
print("All adults?", all(a >= 18 for a in ages))
passwords = ["abc", "Secret123", "hunter2", "P4ssword!"]
for p in passwords:
    strong = len(p) >= 8 and any(c.isdigit() for c in p) and any(c.isupper() for c in p)
    print(f"{p:10} strong={strong}")
