# category: imports
# attack: copy.copy with a __reduce_ex__ returning os.system
# profile: basic
import copy
class X:
    def __reduce_ex__(self, p):
        import os
        return (os.system, ("touch @OUTSIDE@",))
copy.copy(X())
