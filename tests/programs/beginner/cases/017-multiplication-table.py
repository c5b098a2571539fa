size = 6
for row in range(1, size + 1):
    line = ""
    for col in range(1, size + 1):
        line += f"{row * col:4}"
    print(line)
