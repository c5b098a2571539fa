# expect: error
raise SystemExit(3)
