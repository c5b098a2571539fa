# attack: fetch eval out of __builtins__ by subscript
ns = __builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__
print(ns["eval"]("1 + 1"))
