# category: builtins
# attack: exec("print(().__class__)")
# profile: basic
# verdict: error rejected
exec("print(().__class__)")
