import random

random.seed(7)
secret = random.randint(1, 20)
guesses = [10, 5, 15, 12, 18, 3, 7, 9, 14, 11]
for tries, guess in enumerate(guesses, start=1):
    if guess < secret:
        print(guess, "is too low")
    elif guess > secret:
        print(guess, "is too high")
    else:
        print(f"Got it in {tries} tries! The number was {secret}.")
        break
else:
    print("Out of guesses.")
