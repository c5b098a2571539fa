import re

text = "Contact ann@example.com or bob.smith@school.edu; not valid: joe@ or @x.org"
emails = re.findall(r"[\w.]+@[\w]+\.\w+", text)
print(emails)
phone = "Call 555-123-4567 or 555.987.6543"
print(re.findall(r"\d{3}[-.]\d{3}[-.]\d{4}", phone))
print(re.sub(r"\s+", " ", "too    many   spaces"))
m = re.match(r"(\w+)-(\d+)", "order-1234")
if m:
    print(m.group(1), int(m.group(2)) + 1)
