d = {'a': 1}
for k, v in d.iterms():
    print(k, v)
