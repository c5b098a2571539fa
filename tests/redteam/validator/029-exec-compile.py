# attack: compile source to a code object and exec it
code = compile("print('escaped')", "<x>", "exec")
exec(code)
