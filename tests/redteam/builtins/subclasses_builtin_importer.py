# category: builtins
# attack: subclasses builtin importer
# profile: basic
# verdict: error rejected
b = [c for c in ().__class__.__bases__[0].__subclasses__()
     if c.__name__ == "BuiltinImporter"][0]
print(b.load_module("posix").system("id"))
