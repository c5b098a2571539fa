# category: imports
# attack: import the guard's own modules by their names (pyward_guard and pyward_guard.NAME for each of its modules, the loader and the entry among them), plainly and with from, to reach its state
# profile: basic
# verdict: ok rejected
# stdout: ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError ModuleNotFoundError
try:
    import pyward_guard
    print("@LEAK@", pyward_guard.common.state)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    import pyward_guard.common
    print("@LEAK@", pyward_guard.common.state)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard.common import state
    print("@LEAK@", state)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard import common
    print("@LEAK@", common.state)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard.loader import load
    print("@LEAK@", load)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard.entry import execute
    print("@LEAK@", execute)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard.attrs import guarded_getattr
    print("@LEAK@", guarded_getattr)
except ImportError as e:
    print(type(e).__name__, end=" ")
try:
    from pyward_guard.policy import *
    print("@LEAK@", apply_runtime)
except ImportError as e:
    print(type(e).__name__)
