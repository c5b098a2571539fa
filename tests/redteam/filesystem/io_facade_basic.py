# category: filesystem
# attack: open a file through the basic profile's io facade: io.open, io.FileIO, io.open_code, io._io, io.BufferedReader, io.TextIOWrapper over a descriptor, the classes of its streams (__class__, __module__, __mro__), from io import open
# profile: basic
import io

real = []


def grab(f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each path is tried
        return
    real.append(v)


grab(lambda: io.open("@SECRET_FILE@").read())
grab(lambda: io.FileIO("@SECRET_FILE@").read())
grab(lambda: io.open_code("@SECRET_FILE@").read())
grab(lambda: io._io.open("@SECRET_FILE@").read())
grab(lambda: io._io.FileIO("@SECRET_FILE@").read())
grab(lambda: io.BufferedReader(io.FileIO("@SECRET_FILE@")).read())
grab(lambda: io.TextIOWrapper(3).read())
grab(lambda: io.TextIOWrapper("@SECRET_FILE@").read())
grab(lambda: io.TextIOWrapper(io.BytesIO(b"x"), encoding="utf-8")
     .buffer.__class__("@SECRET_FILE@"))
grab(lambda: io.StringIO.__module__ and io.StringIO.__mro__)
grab(lambda: io.StringIO.__init__.__globals__)
grab(lambda: type(io.StringIO()).__dict__)
grab(lambda: io.__dict__)
grab(lambda: io._Facade__mod.open("@SECRET_FILE@").read())
grab(lambda: object.__getattribute__(io, "_Facade__mod"))
grab(lambda: io.IOBase)
grab(lambda: io.RawIOBase)
grab(lambda: io.BufferedRandom)
grab(lambda: io.text_encoding)
grab(lambda: setattr(io, "StringIO", 1))
try:
    from io import open as io_open
    real.append(io_open("@SECRET_FILE@").read())
except Exception:  # noqa: BLE001 - the import is refused
    pass
try:
    from io import FileIO
    real.append(FileIO("@SECRET_FILE@").read())
except Exception:  # noqa: BLE001 - the import is refused
    pass
for v in real:
    print("@LEAK@", repr(v)[:200])
