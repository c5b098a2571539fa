# category: processes
# attack: stay in C code (a sum over a huge range) where the KeyboardInterrupt of a time limit never lands
# profile: basic
# verdict: timeout
# timeout: 1
print(sum(range(10 ** 13)))
