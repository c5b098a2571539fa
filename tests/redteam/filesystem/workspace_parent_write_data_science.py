# category: filesystem
# attack: data_science writes outside output/ through a library, and next to the workspace (its private tmpfs is read-write through its parent for session copies; the audit hook keeps the program to output/)
# profile: data_science
# verdict: error rejected
# never: planted
import pandas as pd
df = pd.DataFrame({"a": [1]})
df.to_csv("../next-to-workspace.csv")
print("planted")
