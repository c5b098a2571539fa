# category: imports
# attack: __import__('os') called as a builtin
# profile: basic
print(__import__("os").popen("cat @SECRET_FILE@").read())
