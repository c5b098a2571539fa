# attack: print the expected answer, then exhaust memory
# expected-stdout: 42
# verdict: MLE
print(42, flush=True)
x = bytearray(1 << 34)
