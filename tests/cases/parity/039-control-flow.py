# parity: If, For, While, Break, Continue and Try with else/finally are allowed (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
for i in range(5):
    if i == 1:
        continue
    while True:
        break
try:
    pass
except Exception:
    pass
else:
    pass
finally:
    pass
