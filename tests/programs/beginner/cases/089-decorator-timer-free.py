def shout(func):
    def wrapper(*args, **kwargs):
        result = func(*args, **kwargs)
        return result.upper() + "!"
    return wrapper


@shout
def greet(name, punctuation=""):
    return f"hello {name}{punctuation}"


print(greet("sam"))
print(greet("lee", punctuation="?"))
