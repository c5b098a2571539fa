import bisect


def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]


print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100]])
sorted_list = [1, 4, 9, 16]
bisect.insort(sorted_list, 10)
print(sorted_list)
