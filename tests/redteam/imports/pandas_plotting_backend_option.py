# category: imports
# attack: pd.set_option('plotting.backend', NAME) imports module NAME to check it, outside the allow-list
# profile: data_science basic
# run-layer: guard
import pandas as pd
pd.set_option("plotting.backend", "this")
pd.set_option("plotting.backend", "antigravity")
