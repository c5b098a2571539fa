numbers = [42, 17, 93, 8, 61, 93, 25]
biggest = numbers[0]
for n in numbers:
    if n > biggest:
        biggest = n
print("Largest by loop:", biggest)
print("Largest by max():", max(numbers))
print("Smallest:", min(numbers))
print("Position of first largest:", numbers.index(biggest))
