# attack: use print as a loop variable
for print in range(3):
    pass
