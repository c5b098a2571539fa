# /// script
# dependencies = ["torch"]
print("not a block: no closing line")
