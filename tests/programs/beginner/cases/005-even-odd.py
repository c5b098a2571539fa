numbers = [3, 8, 15, 22, 7, 10, 1]
evens = []
odds = []
for n in numbers:
    if n % 2 == 0:
        evens.append(n)
    else:
        odds.append(n)
print("Evens:", evens)
print("Odds:", odds)
print("There are", len(evens), "even and", len(odds), "odd numbers")
