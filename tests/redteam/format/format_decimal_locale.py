# category: format
# attack: decimal/datetime __format__ specs used to read outside memory
# profile: basic
import datetime, decimal
print(format(datetime.datetime.now(), "%Y" * 100000)[:20])
print(format(decimal.Decimal(1), "{0.__class__}"))
