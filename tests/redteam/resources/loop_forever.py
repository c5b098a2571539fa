# category: resources
# attack: while True: / pass
# profile: basic
# verdict: timeout rejected
# timeout: 1
while True:
    pass
