# category: resources
# attack: while True: pass
# profile: basic
# timeout: 1
while True:
    pass
