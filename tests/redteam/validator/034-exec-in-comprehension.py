# attack: run exec once per element of a comprehension
[exec(s) for s in ["a = 1", "print('escaped')"]]
