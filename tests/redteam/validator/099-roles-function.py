# attack: a function whose name ends in __roles__
def index__roles__():
    return None
