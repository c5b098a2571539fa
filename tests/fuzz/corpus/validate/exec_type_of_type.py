# expect: error
T = type(type(1))
X = T("X", (), {"y": 1})
