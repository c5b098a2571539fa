# category: builtins
# attack: X = type("X", (), {"y": 1})
# profile: basic
# verdict: error rejected
X = type("X", (), {"y": 1})
