# attack: print the expected answer at once, then never end (the verdict is what the parent observed: TLE)
# expected-stdout: 42
# verdict: TLE
print(42)
while True:
    pass
