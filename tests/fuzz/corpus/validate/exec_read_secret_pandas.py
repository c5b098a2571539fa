# expect: error
# args: --profile data_science
# blocked: audit
import pandas as pd
print(pd.read_csv("@SECRET_FILE@"))
