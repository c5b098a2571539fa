# category: imports
# attack: DataFrame.query evaluates an expression string whose attribute reads and calls the guard never sees (only the name pandas.eval was hidden)
# profile: data_science basic
# run-layer: guard
import pandas as pd
df = pd.DataFrame({"a": [1]})
f = pd.read_csv
print(df.query("@f.__globals__['__builtins__']['open']('@SECRET_FILE@').read() != ''"))
