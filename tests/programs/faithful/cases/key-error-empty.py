d = {}
print(d[''])
