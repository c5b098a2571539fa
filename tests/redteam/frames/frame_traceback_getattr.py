# category: frames
# attack: frame traceback getattr
# profile: basic
# verdict: error rejected
try:
    1 / 0
except Exception as e:
    tb = getattr(e, "__trace" + "back__")
    print(getattr(tb, "tb_frame"))
