# category: imports
# attack: DataFrame.eval evaluates an expression string: a.__class__ reached through pandas' own attribute visitor
# profile: data_science basic
# run-layer: guard
import pandas as pd
df = pd.DataFrame({"a": [1]})
print(df.eval("b = a.__class__.__mro__"))
print(df.apply("eval", expr="@df.__class__.__init__.__globals__"))
