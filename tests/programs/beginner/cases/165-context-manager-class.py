class Indent:
    def __init__(self):
        self.level = 0

    def __enter__(self):
        self.level += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        self.level -= 1
        return False

    def say(self, text):
        print("    " * self.level + text)


ind = Indent()
ind.say("top")
with ind:
    ind.say("one level")
    with ind:
        ind.say("two levels")
ind.say("back to top")
