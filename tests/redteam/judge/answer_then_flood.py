# attack: print the expected answer, then flood the output so the tail is cut off
# expected-stdout: 42
# verdict: OLE
print(42)
while True:
    print("x" * 4096)
