# category: frames
# attack: sys.exc_info() then tb_frame
# profile: basic
import sys
try:
    1 / 0
except ZeroDivisionError:
    print(sys.exc_info()[2].tb_frame.f_globals)
