# category: frames
# attack: a traceback's frames read with str subclass names: tb_frame, then f_back to the guard's own frame and its locals (_real_getattr)
# profile: basic
# run-layer: guard
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()

try:
    1 / 0
except ZeroDivisionError as e:
    tb = getattr(e, S("__traceback__"))
    f = getattr(tb, S("tb_frame"))
    while getattr(f, S("f_back")) is not None:
        f = getattr(f, S("f_back"))
    loc = getattr(f, S("f_locals"))
    print(sorted(loc))
    print(getattr(f, S("f_builtins"))["open"]("@SECRET_FILE@").read())
