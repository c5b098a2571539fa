# faithful: full
class InsufficientFunds(Exception):
    pass


def withdraw(balance, amount):
    if amount > balance:
        raise InsufficientFunds(f'need {amount - balance} more')
    return balance - amount


withdraw(10, 25)
