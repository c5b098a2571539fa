# attack: fullwidth attribute normalising to gi_frame
g = (x for x in [1])
print(g.ｇｉ＿ｆｒａｍｅ)
