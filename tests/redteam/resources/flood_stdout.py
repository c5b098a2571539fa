# category: resources
# attack: while True: / print("x" * 1000)
# profile: basic
# verdict: output_limit rejected
# timeout: 10
# max-output: 10000
while True:
    print("x" * 1000)
