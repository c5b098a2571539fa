# attack: import a private module
import _thread

print(_thread.get_ident())
