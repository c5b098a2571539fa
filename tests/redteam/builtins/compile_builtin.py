# category: builtins
# attack: compile("1", "x", "eval")
# profile: basic
# verdict: error rejected
compile("1", "x", "eval")
