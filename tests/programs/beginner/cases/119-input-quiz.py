questions = [("Capital of France?", "paris"), ("2 + 2 * 2?", "6"), ("Largest planet?", "jupiter")]
score = 0
for question, answer in questions:
    reply = input(question + " ").strip().lower()
    if reply == answer:
        print("Correct!")
        score += 1
    else:
        print("Wrong, it was", answer)
print(f"Score: {score}/{len(questions)}")
