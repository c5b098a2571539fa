# attack: reach the builtins namespace through its __dict__
ns = __builtins__.__dict__
ns["exec"]("print('escaped')")
