# expect: error
X = type("X", (), {"y": 1})
