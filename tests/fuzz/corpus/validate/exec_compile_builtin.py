# expect: error
compile("1", "x", "eval")
