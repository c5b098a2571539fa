# category: syscalls
# attack: __builtins__["__import__"]("os").system("id")
# profile: basic
# verdict: error rejected
__builtins__["__import__"]("os").system("id")
