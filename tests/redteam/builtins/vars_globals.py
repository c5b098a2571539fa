# category: builtins
# attack: print(vars(), globals(), locals())
# profile: basic
# verdict: error rejected
print(vars(), globals(), locals())
