def pascal(n):
    rows = [[1]]
    for i in range(1, n):
        prev = rows[-1]
        row = [1] + [prev[j] + prev[j + 1] for j in range(len(prev) - 1)] + [1]
        rows.append(row)
    return rows


for row in pascal(7):
    print(" ".join(str(v) for v in row).center(30))
