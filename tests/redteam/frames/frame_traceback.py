# category: frames
# attack: frame traceback
# profile: basic
# verdict: error rejected
try:
    1 / 0
except Exception as e:
    print(e.__traceback__.tb_frame.f_back.f_globals)
