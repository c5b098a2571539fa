import copy

original = {"name": "team", "members": ["a", "b"]}
shallow = copy.copy(original)
deep = copy.deepcopy(original)
original["members"].append("c")
print(shallow["members"])
print(deep["members"])
grid = [[0] * 3 for r in range(3)]
grid[0][0] = 1
print(grid)
