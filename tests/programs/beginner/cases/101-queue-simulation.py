from collections import deque

customers = deque([("Ann", 3), ("Ben", 1), ("Cal", 4), ("Dee", 2)])
clock = 0
while customers:
    name, minutes = customers.popleft()
    clock += minutes
    print(f"{name} served, finished at minute {clock}")
print("All done at minute", clock)
