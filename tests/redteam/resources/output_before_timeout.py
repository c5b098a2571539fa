# category: resources
# attack: print a line, then loop forever: the line comes back with the timeout (no flush needed)
# profile: basic
# verdict: timeout
# timeout: 1
# stdout: started
print("started")
while True:
    pass
