text = "Hello World, Welcome To PYTHON 3.11!"
upper = sum(1 for c in text if c.isupper())
lower = sum(1 for c in text if c.islower())
digits = sum(c.isdigit() for c in text)
spaces = text.count(" ")
print("upper:", upper, "lower:", lower, "digits:", digits, "spaces:", spaces)
print(text.swapcase())
