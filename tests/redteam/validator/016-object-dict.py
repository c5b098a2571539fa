# attack: read and write an object's attribute dictionary directly
class Box:
    pass


b = Box()
b.__dict__["hidden"] = 1
print(b.__dict__)
