phonebook = {"Alice": "555-1234", "Bob": "555-9876"}
phonebook["Carol"] = "555-4567"
phonebook["Bob"] = "555-0000"
del phonebook["Alice"]
for name in sorted(phonebook):
    print(name, phonebook[name])
print("Dave" in phonebook, phonebook.get("Dave", "unknown"))
print(len(phonebook), list(phonebook.keys()))
