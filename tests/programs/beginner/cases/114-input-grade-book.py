n = int(input("How many students? "))
book = {}
for i in range(n):
    line = input()
    name, score = line.split(",")
    book[name.strip()] = int(score)
best = max(book, key=book.get)
print()
print("Best student:", best, book[best])
print("Passed:", sorted(name for name, s in book.items() if s >= 50))
