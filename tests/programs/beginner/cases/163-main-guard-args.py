def greet(names):
    for n in names:
        print(f"Welcome, {n}!")


def summary(names):
    return f"{len(names)} guests, longest name: {max(names, key=len)}"


if __name__ == "__main__":
    guests = ["Ida", "Bartholomew", "Kim"]
    greet(guests)
    print(summary(guests))
