quit()  # error
exit(1)  # error
raise SystemExit(0)  # ok
