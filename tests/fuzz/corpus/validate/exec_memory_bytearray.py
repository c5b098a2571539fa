# expect: memory_limit
bytearray(10**11)
