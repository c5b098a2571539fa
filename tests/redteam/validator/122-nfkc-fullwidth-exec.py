# attack: fullwidth letters NFKC-normalise to exec
ｅｘｅｃ("print('escaped')")
