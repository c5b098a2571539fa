# faithful: full
grid = [[1, 2], [3, 4]]
print(grid[1][5] + 1)
