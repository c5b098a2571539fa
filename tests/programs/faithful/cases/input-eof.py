# faithful: full
name = input('Name? ')
print('hello', name)
