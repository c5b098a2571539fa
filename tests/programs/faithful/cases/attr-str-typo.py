name = "ada"
print(name.uper())
