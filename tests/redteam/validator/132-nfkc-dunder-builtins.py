# attack: fullwidth letters inside __builtins__
print(__ｂｕｉｌｔｉｎｓ__)
