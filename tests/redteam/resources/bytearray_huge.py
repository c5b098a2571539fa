# category: resources
# attack: bytearray(2**40)
# profile: basic
b = bytearray(2 ** 40)
