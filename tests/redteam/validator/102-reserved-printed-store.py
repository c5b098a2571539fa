# attack: overwrite the printed collector variable
printed = "fake output"
print(printed)
