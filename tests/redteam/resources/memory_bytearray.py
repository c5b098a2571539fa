# category: resources
# attack: bytearray(10**11)
# profile: basic
# verdict: memory_limit rejected
bytearray(10**11)
