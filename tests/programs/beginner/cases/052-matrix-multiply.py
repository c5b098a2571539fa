def matmul(a, b):
    rows, cols, inner = len(a), len(b[0]), len(b)
    result = [[0] * cols for r in range(rows)]
    for i in range(rows):
        for j in range(cols):
            for k in range(inner):
                result[i][j] += a[i][k] * b[k][j]
    return result


a = [[1, 2], [3, 4]]
b = [[5, 6], [7, 8]]
for row in matmul(a, b):
    print(row)
