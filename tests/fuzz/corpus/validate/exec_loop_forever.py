# expect: timeout
# args: --timeout 1
while True:
    pass
