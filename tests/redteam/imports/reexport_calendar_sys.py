# category: imports
# attack: calendar.sys.modules
# profile: basic
import calendar
print(calendar.sys.modules["os"].environ)
