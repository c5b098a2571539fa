# parity: a str subclass overriding startswith (#282) is not seen statically; the exact-str check stops it at run time (RestrictedPython's published advisories and gaps pyward must cover)
# restricted: accept
# default: accept
class FakeStr(str):
    def startswith(self, prefix):
        return False


k = getattr(1, FakeStr("__class__"))
