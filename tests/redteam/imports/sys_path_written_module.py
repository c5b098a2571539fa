# category: imports
# attack: write a module into the workspace with open(), put the workspace on sys.path and import it (the jobe profile gives open() and a sys facade)
# profile: basic jobe
import sys
with open("evil_mod.py", "w") as f:
    f.write("import os\nprint('@LEAK@', os.getcwd())\n")
try:
    sys.path.insert(0, ".")
except AttributeError:
    pass
try:
    import evil_mod
except ImportError:
    pass
try:
    __import__("evil_mod")
except (ImportError, NameError):
    pass
