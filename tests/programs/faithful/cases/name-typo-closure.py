def outer():
    message = 'hi'

    def inner():
        return mesage
    return inner()


outer()
