# category: frames
# attack: sys._getframe(1).f_globals from user code
# profile: basic
import sys
print(sys._getframe(1).f_globals)
