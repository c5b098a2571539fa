secret = 37
attempts = 0
while True:
    guess = int(input("Guess: "))
    attempts += 1
    if guess == secret:
        print("Correct after", attempts, "attempts")
        break
    print("higher" if guess < secret else "lower")
