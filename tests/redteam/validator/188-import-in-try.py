# attack: import a forbidden module inside try/except
try:
    import ctypes
except ImportError:
    ctypes = None
