# category: filesystem
# attack: the jobe profile's sys.__stdout__, __stdin__ and __stderr__: reach more than sys.stdout gives (the interpreter's own streams, their buffers' classes opened on the secret file or on the result channel's fd, fds beyond 0-2), and replace them so that the run's output or the guard's streams change
# profile: basic jobe
# never: forged-by-dunder-stream
# stdout: same streams: True True True; reached: []; replaced: []
import io
import sys

same = (sys.__stdout__ is sys.stdout, sys.__stdin__ is sys.stdin,
        sys.__stderr__ is sys.stderr)
reached = []
replaced = []


def grab(name, f):
    try:
        v = f()
    except Exception:  # noqa: BLE001 - each path is tried
        return
    reached.append((name, repr(v)[:80]))


raw_out = type(sys.__stdout__.buffer)
raw_in = type(sys.__stdin__.buffer.raw)
grab("open secret", lambda: raw_out("@SECRET_FILE@").read())
grab("open secret by stdin class", lambda: raw_in("@SECRET_FILE@").read())
grab("result channel", lambda: raw_out(3, "w", closefd=False).write(
    b'R{"result": "forged-by-dunder-stream"}\n'))
grab("fd 4", lambda: raw_in(4, "r", closefd=False).read())
grab("wrapper over the secret", lambda: type(sys.__stderr__)(
    raw_in("@SECRET_FILE@")).read())
grab("fd 5 through a stream's fileno", lambda: raw_out(
    sys.__stderr__.fileno() + 3, "w", closefd=False).write(b"x"))
for attr in ("__stdout__", "__stdin__", "__stderr__"):
    for how in (lambda: setattr(sys, attr, io.StringIO()),
                lambda: delattr(sys, attr)):
        try:
            how()
            replaced.append(attr)
        except Exception:  # noqa: BLE001 - every refusal is fine
            pass
print("same streams: %s %s %s; reached: %s; replaced: %s" % (
    same + (reached, replaced)), file=sys.__stdout__)
