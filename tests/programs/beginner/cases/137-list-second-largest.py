def second_largest(nums):
    first = second = None
    for n in nums:
        if first is None or n > first:
            first, second = n, first
        elif n != first and (second is None or n > second):
            second = n
    return second


print(second_largest([4, 9, 2, 9, 7]))
print(second_largest([5, 5]))
print(second_largest([-1, -8, -3]))
