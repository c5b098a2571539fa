# category: resources
# attack: SystemExit(True), which an earlier version reported as success with exit_code true
# profile: basic
# verdict: error
# exit-code: 1
raise SystemExit(True)
