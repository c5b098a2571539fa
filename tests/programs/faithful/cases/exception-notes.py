# faithful: full
try:
    int('x')
except ValueError as e:
    e.add_note('the input must be a number')
    raise
