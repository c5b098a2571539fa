# expect: error
match 1:
    case object(__class__=c):
        print(c.__base__)
