# attack: compile an expression to a code object and eval it
print(eval(compile("2 ** 100", "<x>", "eval")))
