total = 0.0
menu = {"coffee": 2.5, "tea": 2.0, "cake": 3.75}
while True:
    choice = input("Order (or done): ").strip().lower()
    if choice == "done":
        break
    if choice in menu:
        total += menu[choice]
        print("Added", choice)
    else:
        print("Sorry, no", choice)
print(f"Total: ${total:.2f}")
