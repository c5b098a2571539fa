# program: ds pandas groupby
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: {'a': 40.0, 'b': 80.0} 3
import numpy as np
import pandas as pd
df = pd.DataFrame({"k": ["a", "b"] * 50_000,
                   "v": np.tile([1.0, 2.0], 50_000) * 0.0008})
sums = df.groupby("k")["v"].sum().round(6).to_dict()
print(sums, df.merge(df.head(3), on="k").k.nunique() + 1)
