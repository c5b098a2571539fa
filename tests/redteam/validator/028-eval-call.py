# attack: evaluate arbitrary source through eval
print(eval("().__class__.__bases__[0]"))
