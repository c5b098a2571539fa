# attack: import the builtins module under its own name
import builtins

builtins.exec("print('escaped')")
