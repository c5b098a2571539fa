def permutations(word):
    if len(word) <= 1:
        return [word]
    result = []
    for i, ch in enumerate(word):
        for rest in permutations(word[:i] + word[i + 1:]):
            result.append(ch + rest)
    return result


perms = permutations("abc")
print(perms, len(perms))
print(sorted(set(permutations("aab"))))
