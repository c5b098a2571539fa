# attack: import a forbidden module inside a function
def sneaky():
    import subprocess
    return subprocess


print(sneaky())
