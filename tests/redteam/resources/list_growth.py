# category: resources
# attack: append to a list forever
# profile: basic
# timeout: 3
l = []
while True:
    l.append([0] * 100000)
