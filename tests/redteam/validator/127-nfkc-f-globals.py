# attack: fullwidth attribute normalising to f_globals
def gen():
    yield


print(gen().gi_frame.ｆ＿ｇｌｏｂａｌｓ)
