todos = []


def add(task):
    todos.append({"task": task, "done": False})


def complete(index):
    todos[index]["done"] = True


def show():
    for i, t in enumerate(todos):
        mark = "x" if t["done"] else " "
        print(f"[{mark}] {i}: {t['task']}")


add("buy milk")
add("write essay")
add("call grandma")
complete(1)
show()
print(sum(1 for t in todos if not t["done"]), "left")
