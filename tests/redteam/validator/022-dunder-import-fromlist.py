# attack: import a submodule through __import__ with a fromlist
path = __import__("os.path", fromlist=["join"])
print(path.join("a", "b"))
