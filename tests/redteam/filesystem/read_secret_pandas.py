# category: filesystem
# attack: print(pd.read_csv("@SECRET_FILE@"))
# profile: data_science
# verdict: error rejected
# blocked: audit
import pandas as pd
print(pd.read_csv("@SECRET_FILE@"))
