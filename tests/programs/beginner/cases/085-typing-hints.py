from typing import Optional


def find_index(items: list[str], target: str) -> Optional[int]:
    for i, item in enumerate(items):
        if item == target:
            return i
    return None


def average(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


names: list[str] = ["x", "y", "z"]
print(find_index(names, "y"), find_index(names, "w"))
print(average([1.5, 2.5, 3.0]), average([]))
