# category: resources
# attack: output whose text-block cut (4000 bytes) would land inside a two-byte character, to turn the answer into a protocol error
# profile: basic
# verdict: ok
print("a" + "\u00e9" * 5000)
