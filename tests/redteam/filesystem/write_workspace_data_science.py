# category: filesystem
# attack: data_science may write output/ only: the rest of the workspace needs the filesystem profile
# profile: data_science
# verdict: error rejected
# blocked: audit
# files: kept.csv=text/csv
# data_science may write output/ only: the rest of the workspace needs
# the filesystem profile.
import pandas as pd
df = pd.DataFrame({"a": [1, 2]})
df.to_csv("output/kept.csv", index=False)
df.to_csv("elsewhere.csv", index=False)
