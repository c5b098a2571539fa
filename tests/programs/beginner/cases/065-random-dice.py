import random

random.seed(2024)
rolls = [random.randint(1, 6) for i in range(20)]
print(rolls)
counts = {face: rolls.count(face) for face in range(1, 7)}
print(counts)
deck = list(range(1, 11))
random.shuffle(deck)
print(deck)
print(random.choice(["rock", "paper", "scissors"]))
