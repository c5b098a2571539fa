def make_sandwich(bread, *fillings, toasted=False, cut="diagonal"):
    desc = f"{bread} sandwich with {', '.join(fillings) or 'nothing'}"
    if toasted:
        desc = "toasted " + desc
    return desc + f", cut {cut}"


print(make_sandwich("rye", "ham", "cheese"))
print(make_sandwich("white", toasted=True))
print(make_sandwich("wheat", "egg", cut="straight"))
