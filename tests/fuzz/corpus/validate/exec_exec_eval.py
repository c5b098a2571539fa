# expect: error
exec("print(().__class__)")
