# category: frames
# attack: exception.with_traceback(...) then tb_next
# profile: basic
try:
    1 / 0
except ZeroDivisionError as e:
    tb = e.with_traceback(None)
    print(tb.__traceback__.tb_next)
