# category: imports
# attack: pandas.core.computation.eval.eval, the function behind pandas.eval under another name, with the real getattr inside the expression walker
# profile: data_science basic
# run-layer: guard
import pandas
ev = pandas.core.computation.eval.eval
f = pandas.read_csv
print(ev("@f.__globals__['__builtins__']['open']('@SECRET_FILE@').read()"))
