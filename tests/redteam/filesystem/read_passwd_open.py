# category: filesystem
# attack: print(open("/etc/passwd").read())
# profile: basic
# verdict: error rejected
# never: root:x:0
print(open("/etc/passwd").read())
