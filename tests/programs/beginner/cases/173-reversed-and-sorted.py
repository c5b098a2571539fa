word = "stressed"
print("".join(reversed(word)))
nums = [5, 3, 8, 1]
for n in reversed(nums):
    print(n, end=" ")
print()
print(sorted(nums), nums)
print(sorted("banana"))
print(sorted(["b", "A", "c"], key=str.lower))
