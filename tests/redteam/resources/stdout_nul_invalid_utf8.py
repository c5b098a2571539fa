# category: resources
# attack: NUL bytes and a lone surrogate on stdout, to make the answer invalid JSON or cut it short
# profile: basic
# verdict: ok
print("before\x00after")
print("lone \udcff surrogate")
print("end")
