# attack: tuck an eval call inside a lambda body
calc = lambda s: eval(s)
print(calc("6 * 7"))
