def flatten(items):
    result = []
    for item in items:
        if isinstance(item, list):
            result.extend(flatten(item))
        else:
            result.append(item)
    return result


nested = [1, [2, [3, 4], 5], [[6]], 7, []]
print(flatten(nested))
print(sum(flatten(nested)))
