# A bank account whose balance only changes through its methods.
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.__balance = balance
        self._history = []

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.__balance = self.__balance + amount
        self._log("deposit", amount)

    def withdraw(self, amount):
        if amount > self.__balance:
            print("Not enough money for", amount)
            return
        self.__balance = self.__balance - amount
        self._log("withdraw", amount)

    def _log(self, kind, amount):
        self._history.append((kind, amount))

    def balance(self):
        return self.__balance


acct = Account("Sam", 100)
acct.deposit(50)
acct.withdraw(500)
acct.withdraw(30)
print(acct.owner, "has", acct.balance())
for kind, amount in acct._history:
    print(kind, amount)
