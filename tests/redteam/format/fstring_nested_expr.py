# category: format
# attack: nested f-string expression building a dunder path
# profile: basic
n = "__class__"
print(f"{getattr((), f'{n}')}")
