# category: builtins
# attack: T = type(type(1)) / X = T("X", (), {"y": 1})
# profile: basic
# verdict: error rejected
T = type(type(1))
X = T("X", (), {"y": 1})
