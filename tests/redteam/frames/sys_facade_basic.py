# category: frames
# attack: reach the real sys through the basic profile's sys facade: the members' __self__, the streams' buffers and their types, modules, _getframe, settrace, setprofile, addaudithook, exc_info, path, the facade's slots and dict, setattr of modules or path
# profile: basic
import sys

real = []


def grab(f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each path is tried
        return
    real.append(v)


grab(lambda: sys.exit.__self__.modules)
grab(lambda: sys.getrecursionlimit.__self__.modules)
grab(lambda: sys.getsizeof.__self__.modules)
grab(lambda: sys.stdin.buffer.raw.__class__("@SECRET_FILE@").read())
grab(lambda: type(sys.stdin.buffer)("@SECRET_FILE@").read())
grab(lambda: type(sys.stdout.buffer)("@SECRET_FILE@").read())
grab(lambda: type(sys.stdout)(type(sys.stdin.buffer)("@SECRET_FILE@")).read())
grab(lambda: type(sys.stdin.buffer)(type(sys.stdin.buffer.raw)(3)).read())
grab(lambda: type(sys)(sys, "sys", {"modules": 1}))
grab(lambda: sys.__class__.__dict__)
grab(lambda: sys.__dict__)
grab(lambda: sys._Facade__mod.modules)
grab(lambda: object.__getattribute__(sys, "_Facade__mod"))
grab(lambda: sys.modules)
grab(lambda: sys.path)
grab(lambda: sys.meta_path)
grab(lambda: sys._getframe(0))
grab(lambda: sys.settrace)
grab(lambda: sys.setprofile)
grab(lambda: sys.addaudithook)
grab(lambda: sys.exc_info)
grab(lambda: sys.excepthook)
grab(lambda: sys.unraisablehook)
grab(lambda: sys.breakpointhook)
grab(lambda: sys.displayhook)
grab(lambda: sys.audit)
grab(lambda: sys.executable)
grab(lambda: sys.orig_argv)
grab(lambda: sys.flags)
grab(lambda: setattr(sys, "path", ["."]))
grab(lambda: setattr(sys, "modules", {}))
grab(lambda: setattr(sys, "excepthook", print))
for v in real:
    print("@LEAK@", repr(v)[:200])
