# category: builtins
# attack: match 1: / case object(__class__=c): / print(c.__base__)
# profile: basic
# verdict: error rejected
match 1:
    case object(__class__=c):
        print(c.__base__)
