class C:
    x = 1
    y = x + undefined_name
