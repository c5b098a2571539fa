# category: imports
# attack: a program that names only basic modules (so the server forks it from the light zygote, which never loaded pandas or patched it) reaches for pandas at run time, for DataFrame.eval unpatched
# profile: basic data_science
# never: mro
import math
load = vars(math)["__loader__"]
pd = load.load_module("pandas") if hasattr(load, "load_module") else None
if pd is None:
    pd = __builtins__["__import__"]("pandas")
print(pd.DataFrame({"a": [1]}).eval("a.__class__.__mro__"))
