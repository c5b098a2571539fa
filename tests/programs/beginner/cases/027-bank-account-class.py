class BankAccount:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount

    def withdraw(self, amount):
        if amount > self.balance:
            print("Insufficient funds for", self.owner)
            return False
        self.balance -= amount
        return True

    def __str__(self):
        return f"{self.owner}: ${self.balance:.2f}"


acct = BankAccount("Maria", 100)
acct.deposit(50)
acct.withdraw(30)
acct.withdraw(500)
print(acct)
try:
    acct.deposit(-5)
except ValueError as err:
    print("Error:", err)
