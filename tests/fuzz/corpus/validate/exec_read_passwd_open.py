# expect: error
# absent: root:x:0
print(open("/etc/passwd").read())
