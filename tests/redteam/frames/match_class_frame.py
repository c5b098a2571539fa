# category: frames
# attack: match/case class pattern reading tb_frame without LOAD_ATTR
# profile: basic
try:
    1 / 0
except ZeroDivisionError as e:
    tb = e.__traceback__
    match tb:
        case object(tb_frame=fr):
            print(fr.f_globals)
