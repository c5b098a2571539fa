# SPDX-License-Identifier: Apache-2.0
"""mkset.py STATE_DIR - the package set "redteam" of the attacks in this
folder, built offline and installed with `pyward packages install`
(PYWARD, PYTHON3 from the environment).  Each package attacks when it is
imported, with what the attack program holds (PW_RT: the
suite's paths, port and victim substituted into the program, found by
the package up its callers' frames).
pw_rt_native is an extension module (pw_rt_native.c, compiled here):
what it does raises no audit event.  pw_rt_pth ships a .pth file, crafted by hand (setuptools ships none),
that would mark the interpreter if anything processed it."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "packages"))
import wheels  # noqa: E402

# What each import tries; every attempt's outcome is printed.
PROLOGUE = """import os, sys
def _find():
    f = sys._getframe()
    while f is not None and "PW_RT" not in f.f_globals:
        f = f.f_back
    return f.f_globals["PW_RT"] if f is not None else {}
_p = _find()
done = []
def _try(what, fn):
    try:
        fn()
        done.append(what + ": done")
    except BaseException as e:
        done.append(what + ": " + type(e).__name__)
"""

WRITE = PROLOGUE + """
_here = os.path.dirname(os.path.abspath(__file__))
def _write(path):
    with open(path, "w") as f:
        f.write("written by a package")
for t in list(_p.get("TARGETS", ())) + [
        os.path.join(_here, "pw_rt_write_new.py")]:
    _try("write " + t, lambda t=t: _write(t))
def _append_self():
    with open(os.path.abspath(__file__), "a") as f:
        f.write("# appended")
    print(_p.get("MARK", "appended to its own module"))
_try("append to itself", _append_self)
_try("mkdir", lambda: os.mkdir(os.path.join(_here, "pw_rt_dir")))
"""

NET = PROLOGUE + """
import socket
def _tcp():
    s = socket.create_connection(("127.0.0.1", int(_p["PORT"])), timeout=2)
    s.sendall(b"from a package")
def _udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x", ("127.0.0.1", int(_p["PORT"])))
def _raw():
    import _socket
    s = _socket.socket(2, 1)
    s.connect(("127.0.0.1", int(_p["PORT"])))
_try("tcp", _tcp)
_try("udp", _udp)
_try("_socket", _raw)
"""

SPAWN = PROLOGUE + """
def _popen():
    import subprocess
    subprocess.Popen(["sleep", "60"])
def _system():
    os.system("sleep 60 &")
def _posix_spawn():
    os.posix_spawn("/bin/sleep", ["sleep", "60"], {})
_try("subprocess", _popen)
_try("system", _system)
_try("posix_spawn", _posix_spawn)
"""

PROC = PROLOGUE + """
def _read(path):
    with open(path, "rb") as f:
        print(path, f.read(4000))
for pid in ["1", "self"] + [str(p) for p in _p.get("PIDS", ())]:
    for name in ("environ", "cmdline"):
        _try("read /proc/%s/%s" % (pid, name),
             lambda p="/proc/%s/%s" % (pid, name): _read(p))
_try("list /proc", lambda: print(sorted(os.listdir("/proc"))[:50]))
"""

PTH_LINE = ("import builtins; builtins.pw_rt_pth_ran = True; "
            "import os; os.system('touch /tmp/pw-rt-pth-ran')\n")
PTH_MOD = """import builtins, os
def ran():
    return (getattr(builtins, "pw_rt_pth_ran", False) or
            os.path.exists("/tmp/pw-rt-pth-ran"))
"""


def main():
    state = sys.argv[1]
    python = os.environ.get("PYTHON3", "/usr/bin/python3")
    pyward = os.environ.get("PYWARD", "pyward")
    work = os.path.join(state, "build")
    built = [wheels.build(python, work, name, "1.0", {f"{mod}.py": text})
             for name, mod, text in (("pw-rt-write", "pw_rt_write", WRITE),
                                     ("pw-rt-net", "pw_rt_net", NET),
                                     ("pw-rt-spawn", "pw_rt_spawn", SPAWN),
                                     ("pw-rt-proc", "pw_rt_proc", PROC))]
    with open(os.path.join(HERE, "pw_rt_native.c"), encoding="utf-8") as f:
        native = f.read()
    built.append(wheels.build(python, work, "pw-rt-native", "1.0",
                              {"pw_rt_native.c": native}))
    built.append(wheels.craft(os.path.join(work, "wheels"), "pw-rt-pth",
                              "1.0", {"pw_rt_pth.py": PTH_MOD,
                                      "pw_rt_pth.pth": PTH_LINE}))
    env = wheels.pip_env({"PYWARD_STATE_DIR": state})
    r = subprocess.run([pyward, "packages", "install", "--set", "redteam",
                        "--no-index", "--no-deps", *built], env=env,
                       capture_output=True, text=True)
    sys.stderr.write(r.stdout + r.stderr)
    if not os.path.isfile(os.path.join(state, "packages", "redteam",
                                       "pw_rt_pth.pth")):
        sys.stderr.write("mkset.py: the .pth file was not installed\n")
        return 1
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
