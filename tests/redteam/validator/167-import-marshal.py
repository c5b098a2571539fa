# attack: build code objects from bytes with marshal
import marshal

print(marshal.dumps(1))
