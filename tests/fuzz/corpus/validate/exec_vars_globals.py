# expect: error
print(vars(), globals(), locals())
