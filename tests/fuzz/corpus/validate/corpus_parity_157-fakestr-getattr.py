# parity: a str subclass overriding startswith (#282) is not seen statically; the exact-str check stops it at run time (RESTRICTEDPYTHON.md §9,§10)
# restricted: accept
# default: accept
class FakeStr(str):
    def startswith(self, prefix):
        return False


k = getattr(1, FakeStr("__class__"))
