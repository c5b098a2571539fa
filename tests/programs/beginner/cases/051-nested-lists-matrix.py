matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
for row in matrix:
    print(" ".join(str(v) for v in row))
transposed = [[matrix[r][c] for r in range(3)] for c in range(3)]
print(transposed)
diagonal = [matrix[i][i] for i in range(3)]
print("Diagonal:", diagonal, "trace:", sum(diagonal))
flat = [v for row in matrix for v in row]
print(flat)
