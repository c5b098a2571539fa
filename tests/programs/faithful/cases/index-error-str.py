s = 'abc'
print(s[10])
