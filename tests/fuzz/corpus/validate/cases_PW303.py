frame = g.gi_frame  # error
tb.tb_frame.f_back.f_globals  # error x3
x.f_lineno  # ok: not a frame escape
f_back = 1  # ok: a plain variable
