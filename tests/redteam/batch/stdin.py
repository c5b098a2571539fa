# attack: read past the test's own input (the next test's stdin), and seek back in it
k = int(input())
seen = []
try:
    more = input()
    seen.append("more input: %r" % more)
except EOFError:
    pass
print("LEAK: " + ", ".join(seen) if seen else "clean")
