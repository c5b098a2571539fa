# category: resources
# attack: print a gigabyte
# profile: basic
# timeout: 3
while True:
    print('x' * 65536)
