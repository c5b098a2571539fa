import heapq

tasks = []
heapq.heappush(tasks, (3, "write report"))
heapq.heappush(tasks, (1, "fix bug"))
heapq.heappush(tasks, (2, "review code"))
heapq.heappush(tasks, (5, "lunch"))
while tasks:
    priority, name = heapq.heappop(tasks)
    print(priority, name)
print(heapq.nlargest(3, [5, 1, 8, 3, 9, 2]))
