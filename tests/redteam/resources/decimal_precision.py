# category: resources
# attack: decimal with 10**9 digits of precision
# profile: basic
# timeout: 2
import decimal
decimal.getcontext().prec = 10 ** 9
print(decimal.Decimal(1) / decimal.Decimal(7))
