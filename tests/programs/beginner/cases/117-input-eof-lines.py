lines = []
while True:
    try:
        line = input()
    except EOFError:
        break
    lines.append(line)
print("Read", len(lines), "lines")
longest = max(lines, key=len)
print("Longest:", longest)
print("Words:", sum(len(l.split()) for l in lines))
