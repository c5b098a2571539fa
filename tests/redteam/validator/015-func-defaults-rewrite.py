# attack: rewrite a function's default arguments behind its back
def check(user, allowed=("admin",)):
    return user in allowed


check.__defaults__ = (("admin", "guest"),)
print(check("guest"))
