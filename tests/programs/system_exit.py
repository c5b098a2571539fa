# program: raise SystemExit(3)
# profile: basic
# verdict: error
# timeout: 30
raise SystemExit(3)
