rows, cols = map(int, input().split())
grid = [list(map(int, input().split())) for r in range(rows)]
print("row sums:", [sum(r) for r in grid])
print("col sums:", [sum(grid[r][c] for r in range(rows)) for c in range(cols)])
print("max:", max(max(r) for r in grid))
