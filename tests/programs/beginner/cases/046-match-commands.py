def handle(command):
    match command.split():
        case ["go", direction]:
            return f"You walk {direction}."
        case ["take", item]:
            return f"You pick up the {item}."
        case ["look"]:
            return "You see a dark room."
        case ["quit" | "exit"]:
            return "Goodbye!"
        case _:
            return f"I don't understand {command!r}."


for c in ["go north", "take lamp", "look", "dance wildly", "exit"]:
    print(handle(c))
