# category: resources
# attack: print a line, then exhaust memory: the line comes back with the memory limit
# profile: basic
# verdict: memory_limit
# stdout: allocating
print("allocating")
x = bytearray(1 << 36)
