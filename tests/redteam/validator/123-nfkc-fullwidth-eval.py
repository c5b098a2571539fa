# attack: fullwidth letters NFKC-normalise to eval
print(ｅｖａｌ("1 + 1"))
