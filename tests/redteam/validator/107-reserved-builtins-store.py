# attack: bind the name builtins
builtins = {}
