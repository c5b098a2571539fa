# attack: fullwidth letters inside a dunder attribute normalise to __class__
print(().__ｃｌａｓｓ__.__ｂａｓｅｓ__)
