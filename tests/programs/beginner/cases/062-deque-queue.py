from collections import deque

queue = deque(["Ann", "Bo", "Cy"])
queue.append("Di")
print("Serving:", queue.popleft())
queue.appendleft("VIP")
print(list(queue))
recent = deque(maxlen=3)
for page in ["home", "about", "shop", "cart", "checkout"]:
    recent.append(page)
print("Recent pages:", list(recent))
queue.rotate(1)
print(list(queue))
