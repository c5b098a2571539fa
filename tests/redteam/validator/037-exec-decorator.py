# attack: run exec while a decorator expression is evaluated
@exec("print('escaped')")
def payload():
    pass
