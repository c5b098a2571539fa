# faithful: full
print('bye')
raise SystemExit('stopping here')
