# category: resources
# attack: SystemExit with an integer no C long holds, which an earlier version reported as internal_error
# profile: basic
# verdict: error
# exit-code: 255
raise SystemExit(10**30)
