# SPDX-License-Identifier: Apache-2.0
# sessions.py - sessions through `pyward serve` over raw JSON-RPC: state
# across calls (variables, functions, classes, imports, workspace files),
# a multi-step analysis, isolation between sessions, every bad handle,
# each limit (idle TTL, lifetime, sessions per client and per server,
# memory, timeout, output), a process killed between calls, and what is
# left after close and expiry (the server's children, the scratch
# directories); then a soak of many sessions created, used and closed with
# the server's RSS, fds and children flat.  TAP on stdout.
#
# usage: sessions.py [--soak N]
import argparse
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import tap  # noqa: E402 - the tests' own module
from serve_client import (ServeClient, descendants,  # noqa: E402
                          proc_table, wait_for)

PYWARD = os.environ.get("PYWARD", "./pyward")
PROFILES = "basic,filesystem,data_science"


def point(name, why=None):
    """A point named first, as these tests read: failing with WHY, the
    detail expect() gives when its condition does not hold."""
    tap.point(not why, name, why or "")


class Server(ServeClient):
    """One `pyward serve` with ARGS, its scratch directories under a
    TMPDIR of its own (counted after close and expiry)."""

    def __init__(self, *args, spares=None):
        self.spares = spares
        self.tmp = tempfile.mkdtemp(prefix="pyward-sessions.")
        os.chmod(self.tmp, 0o755)
        env = {"TMPDIR": self.tmp}
        if spares is not None:
            env["PYWARD_SPARES"] = str(spares)
        self.log = open(os.path.join(self.tmp, "serve.log"), "wb")
        super().__init__(PYWARD, PROFILES, self.log, args=list(args),
                         env=env)
        self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "sessions", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def tool(self, name, wait=60.0, **args):
        """The tools/call answer: its result, or {"rpc_error": error}."""
        _, msg = self.call("tools/call", {"name": name, "arguments": args},
                           wait)
        if msg is None:
            return {"rpc_error": "no answer"}
        return msg.get("result") or {"rpc_error": msg.get("error")}

    def create(self, **args):
        r = self.tool("create_session", **args)
        return (r.get("structuredContent") or {}).get("session_id"), r

    def run(self, sid, code, **args):
        """The structured result of a call (or the tool error as
        {"tool_error": text})."""
        r = self.tool("execute_code", code=code, session_id=sid, **args)
        if r.get("isError") and "structuredContent" not in r:
            return {"tool_error": text_of(r)}
        return r.get("structuredContent") or r

    def children(self):
        return sorted(p for p, (pp, st) in proc_table().items()
                      if pp == self.p.pid and st not in ("Z", "X"))

    def pools_full(self):
        """True when the children are the zygotes and their spares only,
        none on its way out: no session process, every pool refilled."""
        table = proc_table()
        kids = [p for p, (pp, _) in table.items() if pp == self.p.pid]
        if not all(table[p][1] not in ("Z", "X") and alive(p) for p in kids):
            return False
        zygotes = [p for p in kids if comm(p) == "pyward-zygote"]
        return len(kids) == len(zygotes) * (1 + self.spares)

    def scratch_dirs(self):
        return sorted(n for n in os.listdir(self.tmp)
                      if n.startswith("pyward-run."))

    def rss_kb(self):
        with open(f"/proc/{self.p.pid}/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def fds(self):
        return len(os.listdir(f"/proc/{self.p.pid}/fd"))

    def stop(self):
        self.p.stdin.close()
        code = self.p.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return code


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return "?"


def alive(pid):
    """False if PID is on its way out: SIGKILL pending, or its memory
    gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if not f.read(1):
                return False
        with open(f"/proc/{pid}/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("ShdPnd:"):
                    return not int(line.split()[1], 16) & (1 << 8)
    except OSError:
        return False
    return True


def text_of(r):
    return "".join(c.get("text", "") for c in r.get("content") or []
                   if c.get("type") == "text")


def expect(cond, why):
    return None if cond else why


def settle(pred, wait=3.0):
    """Poll PRED until it holds or WAIT seconds pass; its last value."""
    return wait_for(pred, wait)


def tools_listed(s):
    _, msg = s.call("tools/list", {})
    tools = {t["name"]: t for t in msg["result"]["tools"]}
    ex = tools.get("execute_code", {}).get("inputSchema", {})
    point("tools/list: create_session, close_session, list_sessions "
          "and execute_code's session_id", expect(
              {"create_session", "close_session", "list_sessions"}
              <= set(tools) and "session_id" in ex.get("properties", {})
              and tools["close_session"]["inputSchema"]["required"]
              == ["session_id"], sorted(tools)))


def handles(s):
    a, r = s.create()
    b, _ = s.create()
    ok = a and b and a != b and all(
        re.fullmatch(r"ps-testA-[0-9a-f]{32}", x) for x in (a, b))
    point("create_session: ps-INSTANCE-<128 random bits>, each new",
          expect(ok, json.dumps(r)[:300]))
    return a, b


def state(s, sid):
    r1 = s.run(sid, "import math\nx = 6\ndef twice(v):\n    return 2 * v\n"
               "class Box:\n    def __init__(self, v):\n"
               "        self.v = v\nprint('defined')")
    r2 = s.run(sid, "b = Box(twice(x))\nprint(b.v, math.floor(2.5))\nb.v + 1")
    point("variables, functions, classes and imports persist across "
          "calls", expect(r1.get("status") == "ok" and
                          r2.get("stdout") == "12 2\n" and
                          r2.get("result") == 13, json.dumps(r2)[:400]))
    names = set(r2.get("variables") or [])
    point("'variables' lists the session's names",
          expect({"x", "twice", "Box", "b"} <= names, sorted(names)))
    e = s.run(sid, "raise ValueError('bad')")
    ex = s.run(sid, "raise SystemExit(3)")
    after = s.run(sid, "print(x)")
    point("an error or SystemExit ends the call, not the session",
          expect(e.get("status") == "error" and
                 e.get("error_details", {}).get("type") == "ValueError" and
                 not e.get("session_ended") and
                 ex.get("exit_code") == 3 and
                 after.get("stdout") == "6\n",
                 json.dumps([e, ex, after])[:600]))


def audited(s):
    """The audit hook's refusals are reported on every call of a session
    (a file outside the workspace read, as the red-team's
    disclosure/etc_passwd_shadow)."""
    sid, _ = s.create(profile="filesystem")
    code = "import pathlib\npathlib.Path('/etc/passwd').read_text()\n"
    res = [s.run(sid, code) for _ in range(2)]
    point("a refused audit event is reported by each call of a session "
          "that makes one", expect(all(
              (r.get("blocked") or {}).get("kind") == "audit" and
              r.get("status") == "error" and not r.get("session_ended")
              for r in res), json.dumps(res)[:600]))
    s.tool("close_session", session_id=sid)


def analysis(s):
    sid, _ = s.create(profile=["basic", "data_science"])
    steps = [
        "import statistics, json\n"
        "rows = [{'city': c, 'temp': t} for c, t in "
        "[('Oslo', 4), ('Rome', 18), ('Oslo', 6), ('Rome', 20), "
        "('Lima', 19)]]\nlen(rows)",
        "by = {}\nfor r in rows:\n    by.setdefault(r['city'], [])"
        ".append(r['temp'])\n"
        "means = {c: statistics.mean(v) for c, v in sorted(by.items())}\n"
        "means",
        "hottest = max(means, key=means.get)\n"
        "print(hottest, json.dumps(means))",
    ]
    res = [s.run(sid, c) for c in steps]
    point("a multi-step analysis across calls", expect(
        res[0].get("result") == 5 and
        res[1].get("result") == {"Lima": 19, "Oslo": 5, "Rome": 19} and
        res[2].get("stdout") == 'Lima {"Lima": 19, "Oslo": 5, "Rome": 19}\n',
        json.dumps(res)[:800]))
    r = s.run(sid, "import pandas as pd\n")
    if r.get("status") != "ok":
        tap.skip("a pandas analysis across calls", "pandas not installed")
    else:
        a = s.run(sid, "df = pd.DataFrame(rows)\nlen(df)")
        b = s.run(sid, "df.groupby('city')['temp'].mean().to_dict()")
        point("a pandas analysis across calls", expect(
            a.get("result") == 5 and
            (b.get("result") or {}).get("Oslo") == 5.0,
            json.dumps([a, b])[:500]))
    s.tool("close_session", session_id=sid)


def workspace(s):
    sid, _ = s.create(profile="filesystem")
    w = s.run(sid, "from pathlib import Path\n"
              "Path('notes.txt').write_text('kept')\n"
              "Path('output').mkdir(exist_ok=True)\n"
              "Path('output/a.txt').write_text('one')")
    r = s.run(sid, "from pathlib import Path\n"
              "print(Path('notes.txt').read_text())")
    t = s.run(sid, "Path('output/b.txt').write_text('two')")
    files_w = [f["name"] for f in w.get("files") or []]
    files_r = [f["name"] for f in r.get("files") or []]
    files_t = [f["name"] for f in t.get("files") or []]
    point("workspace files persist across calls; each output/ file comes "
          "back with the call that wrote it", expect(
              r.get("stdout") == "kept\n" and files_w == ["a.txt"] and
              files_r == [] and files_t == ["b.txt"],
              json.dumps([w, r, t])[:600]))
    return sid


def isolation(s, a, b, fs):
    s.run(a, "secret = 'only-in-a'\nabs = lambda v: 'patched'")
    same = s.run(a, "print(abs(-1))\nsecret")
    other = s.run(b, "print(abs(-1))\nprint(sorted(n for n in dir() "
                  "if not n.startswith('_')))")
    point("what a call leaves (a global, a patched builtin) stays in "
          "its own session", expect(
              same.get("stdout") == "patched\n" and same.get("result") ==
              "only-in-a" and other.get("stdout") == "1\n[]\n",
              json.dumps([same, other])[:500]))
    fs2, _ = s.create(profile="filesystem")
    r = s.run(fs2, "from pathlib import Path\n"
              "print(sorted(p.name for p in Path('.').iterdir()))")
    point("another session sees none of a session's files", expect(
        r.get("status") == "ok" and "notes.txt" not in r.get("stdout", "x"),
        json.dumps(r)[:300]))
    s.tool("close_session", session_id=fs2)


def bad_handles(s, live):
    unknown = "ps-testA-" + "0" * 32
    cases = [
        ("an unknown handle", unknown, "unknown session"),
        ("another instance's handle", "ps-other-" + "0" * 32,
         "unknown session"),
        ("a made-up string", "hello", "unknown session"),
    ]
    for name, sid, want in cases:
        r = s.tool("execute_code", code="print(1)", session_id=sid)
        point(f"execute_code with {name}: a tool error saying "
              f"'{want}'", expect(r.get("isError") and want in
                                  text_of(r), json.dumps(r)[:300]))
    c = s.tool("close_session", session_id=unknown)
    point("close_session of an unknown handle: a tool error",
          expect(c.get("isError") and "unknown session" in text_of(c),
                 json.dumps(c)[:300]))
    s.tool("close_session", session_id=live)
    r = s.tool("execute_code", code="print(1)", session_id=live)
    point("a closed handle: 'session ended: closed by close_session'",
          expect(r.get("isError") and "session ended: closed" in
                 text_of(r), json.dumps(r)[:300]))
    wrong = [
        ({"code": "1", "session_id": 42}, "'session_id' must be the string"),
        ({"code": "1", "session_id": None}, "'session_id' must be"),
        ({"code": "1", "session_id": unknown, "profile": "basic"},
         "'profile' cannot be given with 'session_id'"),
        ({"code": "1", "session_id": unknown, "memory_limit": "64m"},
         "'memory_limit' cannot be given with 'session_id'"),
    ]
    for args, want in wrong:
        r = s.tool("execute_code", **args)
        point(f"execute_code {json.dumps(args)[:60]}: a tool error "
              f"explaining", expect(r.get("isError") is True and
                                    want in text_of(r),
                                    json.dumps(r)[:300]))
    for name, args in (("close_session", {}),
                       ("close_session", {"session_id": [1]}),
                       ("list_sessions", {"x": 1}),
                       ("create_session", {"ttl": "long"}),
                       ("create_session", {"profile": "nope"})):
        r = s.tool(name, **args)
        point(f"{name} {json.dumps(args)}: a tool error", expect(
            r.get("isError") is True and "rpc_error" not in r,
            json.dumps(r)[:300]))


def ending_calls(s):
    """Calls that end their session, and what the next call says."""
    cases = [
        ("a timeout whose program catches its KeyboardInterrupt and goes "
         "on", {},
         "import time\nwhile True:\n    try:\n        time.sleep(5)\n"
         "    except KeyboardInterrupt:\n        pass", {"timeout": 1},
         "timeout", "did not stop within"),
        ("the memory limit", {"memory_limit": "256m"},
         "x = bytearray(600 * 1024 * 1024)", {}, "memory_limit",
         "memory limit"),
        ("the output limit", {}, "while True:\n    print('x' * 4096)",
         {"timeout": 10}, "output_limit", "output limit"),
    ]
    for name, cargs, code, xargs, status, why in cases:
        sid, _ = s.create(**cargs)
        s.run(sid, "kept = 1")
        r = s.run(sid, code, **xargs)
        nxt = s.run(sid, "print(kept)")
        point(f"{name} ends the session and says so; its next call: "
              f"'session ended: ...{why}'", expect(
                  r.get("status") == status and
                  r.get("session_ended") is True and
                  why in nxt.get("tool_error", ""),
                  json.dumps([r, nxt])[:600]))


def interrupts(s):
    """A call at its time limit gets a KeyboardInterrupt; the session
    keeps every name, unless the program does not stop within the grace
    period (then it is killed and the session ends)."""
    sid, _ = s.create()
    s.run(sid, "kept = [1, 2]\nn = 0")
    r = s.run(sid, "while True:\n    n += 1", timeout=1)
    nxt = s.run(sid, "print(kept, n > 0)")
    point("a call at its time limit is interrupted: status timeout, "
              "timeout_interrupt 'interrupted', a KeyboardInterrupt "
              "traceback, the session kept with every name", expect(
                  r.get("status") == "timeout" and
                  r.get("timeout_interrupt") == "interrupted" and
                  r.get("session_ended") is False and
                  "KeyboardInterrupt" in (r.get("traceback") or "") and
                  nxt.get("stdout") == "[1, 2] True\n",
                  json.dumps([r, nxt])[:800]))
    r = s.run(sid, "import time\ntry:\n    time.sleep(30)\n"
              "except KeyboardInterrupt:\n    print('cleaned up')",
              timeout=1)
    point("a program blocked in time.sleep is interrupted and may clean "
              "up; the session lives", expect(
                  r.get("stdout") == "cleaned up\n" and
                  r.get("status") == "timeout" and
                  r.get("session_ended") is False, json.dumps(r)[:600]))
    for name, code in (
            ("catches KeyboardInterrupt and keeps running",
             "import time\nwhile True:\n    try:\n        time.sleep(5)\n"
             "    except KeyboardInterrupt:\n        print('ignored')"),
            ("blocks in C code (a sum over a huge range)",
             "x = sum(range(10 ** 12))")):
        sid, _ = s.create()
        s.run(sid, "kept = 1")
        r = s.run(sid, code, timeout=1)
        nxt = s.run(sid, "print(kept)")
        point(f"a program that {name} is killed after the grace period: "
                  "timeout_interrupt 'killed', the session ended", expect(
                      r.get("status") == "timeout" and
                      r.get("timeout_interrupt") == "killed" and
                      r.get("session_ended") is True and
                      "did not stop within" in nxt.get("tool_error", ""),
                      json.dumps([r, nxt])[:800]))
    sid, _ = s.create()
    r = s.run(sid, "import signal", timeout=1)
    point("a call cannot import signal to change its SIGINT handler",
              expect(r.get("status") in ("rejected", "error"),
                     json.dumps(r)[:300]))


def recursion_limit(s):
    """A session's recursion limit is the program's across calls: the
    guard's own frames do not add to it call after call, and a limit the
    program set stays."""
    sid, _ = s.create()
    code = "import sys\nprint(sys.getrecursionlimit())"
    got = [s.run(sid, code).get("stdout") for _ in range(4)]
    s.run(sid, "sys.setrecursionlimit(3000)")
    got.append(s.run(sid, "print(sys.getrecursionlimit())").get("stdout"))
    point("the recursion limit stays python3's across calls, and the "
          "program's own once it sets one", expect(
              got == ["1000\n"] * 4 + ["3000\n"], repr(got)))


def call_stdin(s):
    """Each call of a session reads its own stdin."""
    sid, _ = s.create()
    a = s.run(sid, "first = input()\nsecond = input()",
              stdin="hello\nworld\n")
    b = s.run(sid, "print(first, second)\nthird = input()", stdin="again")
    c = s.run(sid, "print(input())")
    point("stdin per call: each call reads what it was given, a call "
              "without stdin gets EOF", expect(
                  a.get("status") == "ok" and
                  b.get("stdout") == "hello world\n" and
                  b.get("status") == "ok" and
                  "EOFError" in (c.get("error") or ""),
                  json.dumps([a, b, c])[:800]))


def session_files(s):
    """write_file, read_file and list_files on a session's workspace, and
    what they refuse: paths out of it, links, /proc, huge content, a
    session without a workspace of its own, a session in a call."""
    sid, _ = s.create(profile=["basic", "filesystem"])

    def tool(name, **a):
        r = s.tool(name, session_id=sid, **a)
        return r.get("isError"), (r.get("structuredContent") or
                                  {"text": text_of(r)})
    w = tool("write_file", path="in.txt", content="abc\n")
    b = tool("write_file", path="raw.bin", content_base64="AP8A")
    r = s.run(sid, "import pathlib\np = pathlib.Path('in.txt')\n"
              "pathlib.Path('d').mkdir()\n"
              "pathlib.Path('d/out.txt').write_text(p.read_text().upper())\n"
              "print(pathlib.Path('raw.bin').read_bytes())")
    ls = tool("list_files")
    sub = tool("list_files", path="d")
    out = tool("read_file", path="d/out.txt")
    raw = tool("read_file", path="raw.bin")
    point("write_file puts text and bytes the program reads; list_files "
              "and read_file show what it wrote (bytes as base64)", expect(
                  not w[0] and not b[0] and
                  r.get("stdout") == "b'\\x00\\xff\\x00'\n" and
                  [(e["name"], e["type"]) for e in ls[1]["entries"]] ==
                  [("d", "directory"), ("in.txt", "file"),
                   ("output", "directory"), ("raw.bin", "file")] and
                  sub[1]["entries"] == [{"name": "out.txt", "type": "file",
                                         "size": 4}] and
                  out[1].get("content") == "ABC\n" and
                  raw[1].get("content_base64") == "AP8A",
                  json.dumps([w, b, r.get("stdout"), ls, sub, out,
                              raw])[:900]))
    for path, why in (("../x", "leads out of the workspace"),
                      ("d/../../x", "leads out of the workspace"),
                      ("/etc/passwd", "leads out of the workspace"),
                      ("/proc/self/environ", "leads out of the workspace"),
                      ("/proc/1/root/etc/passwd", "leads out of the workspace"),
                      ("d", "not a regular file"),
                      ("nothing", "no such file")):
        rr = tool("read_file", path=path)
        ww = tool("write_file", path=path, content="x")
        wrote = path == "nothing"  # write_file makes a file that is not
        point(f"read_file {path!r}: refused ({why}); write_file "
                  f"{'makes it' if wrote else 'refused'}",
                  expect(rr[0] and why in rr[1]["text"] and
                         ww[0] != wrote, json.dumps([rr, ww])[:400]))
    r = s.run(sid, "import pathlib\npathlib.Path('ln').symlink_to('/etc')")
    ln = tool("read_file", path="ln/passwd")
    point("a program cannot plant a symbolic link, and read_file through "
              "one that is not there reads nothing", expect(
                  r.get("status") == "error" and ln[0] and
                  "root:" not in json.dumps(ln), json.dumps([r, ln])[:400]))
    big = tool("write_file", path="big", content="x" * (9 << 20))
    full = tool("write_file", path="big", content="x" * (8 << 20))
    point("write_file past 8 MiB is refused; within it, the workspace's "
              "own room caps it", expect(
                  big[0] and "at most" in big[1]["text"] and
                  (not full[0] or "full" in full[1]["text"]),
                  json.dumps([big, full])[:400]))
    s.next_id += 1
    busy_id = s.next_id
    s.send({"jsonrpc": "2.0", "id": busy_id, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {
                "session_id": sid, "code": "import time\ntime.sleep(1.5)"}}})
    during = None
    for _ in range(100):
        during = tool("write_file", path="probe.txt", content="during")
        if during[0] and "busy" in during[1]["text"]:
            break
        time.sleep(0.02)
    deadline = time.monotonic() + 30
    while True:  # the call's own answer
        line = s.readline(deadline)
        if line is None or json.loads(line).get("id") == busy_id:
            break
    after = s.run(sid, "print(pathlib.Path('in.txt').read_text())")
    point("write_file while a call runs: refused (busy); the session "
              "answers after the call", expect(
                  during[0] and "busy" in during[1]["text"] and
                  after.get("stdout") == "abc\n\n",
                  json.dumps([during, after])[:400]))
    r = s.tool("fork_session", session_id=sid)
    c = (r.get("structuredContent") or {}).get("session_id")
    wc = s.tool("write_file", session_id=c, path="in.txt", content="copy")
    mine = tool("read_file", path="in.txt")
    theirs = s.run(c, "print(pathlib.Path('in.txt').read_text())")
    point("a copy's file tools reach its own workspace, not the "
              "session's", expect(
                  c is not None and not wc.get("isError") and
                  mine[1].get("content") == "abc\n" and
                  theirs.get("stdout") == "copy\n",
                  json.dumps([r, wc, mine, theirs])[:600]))
    s.tool("close_session", session_id=c)
    plain, _ = s.create(profile="basic")
    r = s.tool("list_files", session_id=plain)
    point("a session whose profiles write no files has no workspace for "
              "the file tools", expect(
                  r.get("isError") and "no workspace of its own" in
                  text_of(r), json.dumps(r)[:300]))
    s.tool("close_session", session_id=plain)
    s.tool("close_session", session_id=sid)


def killed_between(s):
    before = set(s.children())
    sid, _ = s.create()
    s.run(sid, "y = 1")
    new = set(s.children()) - before
    for pid in new:
        os.kill(pid, signal.SIGKILL)
    settle(lambda: all(proc_table().get(p, (0, "X"))[1] in ("Z", "X")
                       for p in new))  # dead
    r = s.run(sid, "print(y)")
    point("a session whose process was killed between calls: its next "
          "call says it ended", expect(
              len(new) == 1 and "session ended: its process ended "
              "between calls" in r.get("tool_error", ""),
              f"new children {new}; {json.dumps(r)[:300]}"))


def nothing_left(s, idle_kids):
    listed = s.tool("list_sessions").get("structuredContent", {})
    for x in listed.get("sessions", []):
        s.tool("close_session", session_id=x["session_id"])
    kids = settle(lambda: len(s.children()) <= idle_kids and
                  not s.scratch_dirs())
    point("after close: no session process, no scratch directory "
          f"(children {len(s.children())} <= {idle_kids})",
          expect(kids, f"children {s.children()}, scratch "
                 f"{s.scratch_dirs()}"))


def fork(s, sid):
    r = s.tool("fork_session", session_id=sid)
    return (r.get("structuredContent") or {}).get("session_id"), r


def concurrent_copies(s, a):
    """Two copies of A calling at once share one seccomp listener: a
    refused call in one ends that one only, whichever call's poll took
    the notice; the other's call finishes."""
    b, _ = fork(s, a)
    c, _ = fork(s, a)
    base = s.next_id
    s.send({"jsonrpc": "2.0", "id": base + 1, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {
                "session_id": b, "code": "import time\ntime.sleep(0.5)\n"
                                         "print('slept')"}}})
    s.send({"jsonrpc": "2.0", "id": base + 2, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {
                "session_id": c, "code": "import time\ntime.sleep(0.1)\n"
                "time.clock_settime(time.CLOCK_REALTIME, 0.0)"}}})
    s.next_id = base + 2
    got, deadline = {}, time.monotonic() + 30
    while len(got) < 2:
        line = s.readline(deadline)
        if line is None:
            break
        msg = json.loads(line)
        if msg.get("id") in (base + 1, base + 2):
            got[msg["id"]] = msg["result"].get("structuredContent") or {}
    rb, rc = got.get(base + 1, {}), got.get(base + 2, {})
    point("two copies calling at once: a refused system call ends the "
          "copy that made it, the other's call finishes", expect(
              rb.get("stdout") == "slept\n" and
              not rb.get("session_ended") and
              (rc.get("blocked") or {}).get("kind") == "syscall" and
              rc.get("session_ended") is True,
              json.dumps([rb, rc])[:900]))
    after = s.run(b, "print('still here')")
    point("the other copy goes on", expect(
        after.get("stdout") == "still here\n", json.dumps(after)[:300]))
    s.tool("close_session", session_id=b)


def fork_files(s):
    """Copies of sessions with a workspace: each copy its own files."""
    fs, _ = s.create(profile="filesystem")
    s.run(fs, "from pathlib import Path\nPath('a.txt').write_text('orig')\n"
          "Path('output').mkdir(exist_ok=True)\n"
          "Path('output/o.txt').write_text('o')")
    c, r = fork(s, fs)
    rc = s.run(c or "", "print(Path('a.txt').read_text())\n"
               "Path('a.txt').write_text('copy')\n"
               "Path('output/c.txt').write_text('c')")
    s.run(fs, "Path('later.txt').write_text('after the fork')")
    ro = s.run(fs, "print(Path('a.txt').read_text(), "
               "sorted(p.name for p in Path('output').iterdir()))")
    rc2 = s.run(c or "", "print(Path('a.txt').read_text(), "
                "Path('later.txt').exists())")
    point("a copy of a session with files has its own copy of them: "
          "neither sees the other's later writes; each reports its own "
          "new output/ files", expect(
              c and rc.get("stdout") == "orig\n" and
              [f["name"] for f in rc.get("files") or []] == ["c.txt"] and
              ro.get("stdout") == "orig ['o.txt']\n" and
              rc2.get("stdout") == "copy False\n",
              json.dumps([r, rc, ro, rc2])[:900]))
    ds, _ = s.create(profile="data_science")
    r = s.run(ds, "import pandas as pd\n"
              "pd.DataFrame({'a': [1, 2]}).to_csv('output/a.csv')")
    if r.get("status") != "ok":
        tap.skip("a data_science session is copied with its output/ files",
                 "pandas not installed")
        return
    c, r = fork(s, ds)
    rc = s.run(c or "", "pd.DataFrame({'b': [3]}).to_csv('output/b.csv')\n"
               "int(pd.read_csv('output/a.csv').a.sum())")
    ro = s.run(ds, "pd.read_csv('output/b.csv')")
    rw = s.run(c or "", "pd.DataFrame({'c': [4]}).to_csv('elsewhere.csv')")
    point("a session that may write only under output/ is copied with "
          "its output/ files; the copy still may not write elsewhere",
          expect(c and rc.get("result") == 3 and
                 [f["name"] for f in rc.get("files") or []] ==
                 ["b.csv"] and "FileNotFoundError" in
                 str(ro.get("error")) and rw.get("status") == "error" and
                 (rw.get("blocked") or {}).get("kind") == "audit",
                 json.dumps([r, rc, ro, rw])[:900]))
    pd, _ = s.create(profile="data_science")
    s.run(pd, "import pandas as pd\n"
          "df = pd.DataFrame({'city': ['Oslo', 'Rome', 'Oslo'], "
          "'temp': [4, 18, 6]})\nlen(df)")
    c, _ = fork(s, pd)
    a = s.run(c or "", "df = df[df.city == 'Oslo']\nfloat(df.temp.mean())")
    b = s.run(pd, "float(df.temp.mean())")
    point("a pandas analysis forked into two: each goes on from the "
          "same DataFrame", expect(
              a.get("result") == 5.0 and
              b.get("result") == 28 / 3, json.dumps([a, b])[:600]))


def fork_files_memory(s):
    """The files of a session and of its copies count in its memory
    limit: each workspace is the share of it the limit leaves (32 MiB
    under 64 MiB, where the cap is 64 MiB)."""
    fill = ("from pathlib import Path\n"
            "for p in Path('.').glob('big*'):\n"
            "    p.unlink()\n"
            "n = 0\n"
            "block = b'x' * (1 << 20)\n"
            "try:\n"
            "    for i in range(200):\n"
            "        Path('big%d' % i).write_bytes(block)\n"
            "        n += 1\n"
            "except OSError:\n"
            "    pass\n"
            "n")
    fs, _ = s.create(profile="filesystem", memory_limit="64m")
    a = s.run(fs, fill)
    c, r = fork(s, fs)
    b = s.run(c or "", fill)
    again = s.run(fs, fill)
    point("under a 64 MiB memory limit a session's workspace holds "
          "32 MiB, and so does its copy's", expect(
              c and a.get("result") == 32 and b.get("result") == 32 and
              again.get("result") == 32,
              json.dumps([a, r, b, again])[:900]))
    s.tool("close_session", session_id=c or "")
    s.tool("close_session", session_id=fs)


def forks(s):
    """fork_session: a copy of a live session, then two sessions."""
    idle = set(settle(lambda: s.children(), 2.0) or [])
    _, msg = s.call("tools/list", {})
    tools = {t["name"]: t for t in msg["result"]["tools"]}
    schema = tools.get("fork_session", {}).get("inputSchema", {})
    point("tools/list: fork_session(session_id), routed by its header",
          expect(schema.get("required") == ["session_id"] and
                 schema["properties"]["session_id"].get("x-mcp-header")
                 == "Session-Id", json.dumps(schema)))
    a, _ = s.create(profile="basic")
    s.run(a, "import math\nx = 6\ndef twice(v):\n    return 2 * v\n"
          "class Box:\n    def __init__(self, v):\n        self.v = v\n"
          "b = Box(math.floor(2.5))")
    c, r = fork(s, a)
    st = r.get("structuredContent") or {}
    got = s.run(c, "print(x, twice(x), b.v, math.pi > 3)") if c else {}
    point("fork_session: a new handle whose session has the variables, "
          "functions, classes and imports of the original", expect(
              c and c != a and st.get("forked_from") == a and
              got.get("stdout") == "6 12 2 True\n",
              json.dumps([r, got])[:600]))
    s.run(c, "x = 100\nonly_copy = 1\nb.v = 'copy'")
    s.run(a, "x = -1")
    ra = s.run(a, "print(x, b.v)\nprint('only_copy' in dir())")
    rc = s.run(c, "print(x, b.v)\nprint('only_copy' in dir())")
    point("after the fork the two diverge: neither sees the other's "
          "changes", expect(ra.get("stdout") == "-1 2\nFalse\n" and
                            rc.get("stdout") == "100 copy\nTrue\n",
                            json.dumps([ra, rc])[:600]))
    code = "import random\nrandom.random()"
    d, _ = fork(s, c)
    va, vd = s.run(c, code).get("result"), s.run(d, code).get("result")
    point("each copy draws its own random numbers", expect(
        isinstance(va, float) and isinstance(vd, float) and va != vd,
        f"{va} {vd}"))
    s.tool("close_session", session_id=a)
    rd = s.run(d, "print(x)")
    point("a copy of a copy outlives the session it came from",
              expect(rd.get("stdout") == "100\n", json.dumps(rd)[:300]))
    t = s.run(c, "import time\nwhile True:\n    try:\n        "
              "time.sleep(5)\n    except KeyboardInterrupt:\n        pass",
              timeout=1)
    rd = s.run(d, "print(b.v)")
    point("a copy that times out ends alone: the other copy answers",
          expect(t.get("status") == "timeout" and t.get("session_ended")
                 and rd.get("stdout") == "copy\n",
                 json.dumps([t, rd])[:600]))
    alive = len(descendants(s.p.pid))
    busy = [fork(s, d)[0] for _ in range(20)]
    made = [x for x in busy if x]
    _, r = fork(s, d)
    point("the processes a session and its copies may have are capped "
          "(session_nproc): a clear error past it", expect(
              0 < len(made) < 20 and r.get("isError") and
              "session_nproc" in text_of(r), f"{len(made)} made; "
              f"{text_of(r)}"))
    ok = len(made) >= 3 and all(s.run(x, "x").get("result") == 100
                                for x in made[:3])
    point("every copy answers with the state it was copied with",
          expect(ok, "a copy did not answer"))
    for x in made:
        s.tool("close_session", session_id=x)
    # A closed copy's process is killed at once but counts against the
    # cap until the kernel has torn it down: fork_session waits for that.
    e, r = fork(s, d)
    point("a fork right after closing copies at the cap waits for their "
          "teardown and is made", expect(e is not None,
                                         json.dumps(r)[:300]))
    s.tool("close_session", session_id=e or "")
    settle(lambda: len(descendants(s.p.pid)) <= alive, 10.0)
    concurrent_copies(s, d)
    fork_files(s)
    fork_files_memory(s)
    bad = [s.tool("fork_session", session_id="ps-testA-" + "0" * 32),
           s.tool("fork_session", session_id=a),
           s.tool("fork_session", session_id=7)]
    point("fork_session of an unknown or closed handle, or of a number: "
          "a tool error naming why", expect(
              "unknown session" in text_of(bad[0]) and
              "session ended: closed" in text_of(bad[1]) and
              bad[2].get("isError") and "session_id" in text_of(bad[2]),
              json.dumps(bad)[:600]))
    for x in s.tool("list_sessions").get("structuredContent", {}).get(
            "sessions", []):
        s.tool("close_session", session_id=x["session_id"])
    left = settle(lambda: descendants(s.p.pid) <= idle and
                  not s.scratch_dirs())
    point("after closing every copy: no process, no scratch directory",
          expect(left, f"left {descendants(s.p.pid) - idle}, scratch "
                 f"{s.scratch_dirs()}"))
    point("the server exits cleanly", expect(s.stop() == 0, "status"))


def limits(s, s2):
    idle = len(settle(lambda: s.children(), 2.0) or [])
    a, _ = s.create(ttl=0.5)
    s.run(a, "v = 1")
    b, _ = s.create()
    c, r = s.create()
    s.tool("close_session", session_id=b)
    point("a third session for the client: 'too many sessions'",
          expect(c is None and r.get("isError") and "too many sessions"
                 in text_of(r), json.dumps(r)[:300]))
    big = s.tool("create_session", ttl=5)
    point("create_session's ttl above the server's: a tool error",
          expect(big.get("isError") is True and "ttl" in text_of(big),
                 json.dumps(big)[:300]))
    settle(lambda: a not in json.dumps(s.tool("list_sessions")), 10.0)
    r = s.run(a, "print(v)")
    point("an idle session expires after its ttl: 'session ended: "
          "expired'", expect("session ended: expired: idle" in
                             r.get("tool_error", ""), json.dumps(r)))
    b, _ = s.create()
    r, until = {}, time.monotonic() + 15
    while "tool_error" not in r and time.monotonic() < until:
        time.sleep(0.2)  # used: idle never reaches the ttl
        r = s.run(b, "pass")
    point("a session ends at its maximum lifetime", expect(
        "maximum lifetime" in r.get("tool_error", ""), json.dumps(r)))
    left = settle(lambda: len(s.children()) <= idle and
                  not s.scratch_dirs())
    point("after expiry: no session process, no scratch directory",
          expect(left, f"children {s.children()} (idle {idle}), "
                 f"scratch {s.scratch_dirs()}"))
    s.stop()
    s = s2
    x = [s.create()[0] for _ in range(2)]
    y, r = s.create()
    point("past the server's maximum: 'too many sessions on this "
          "server'", expect(all(x) and y is None and
                            "on this server" in text_of(r), text_of(r)))
    s.tool("close_session", session_id=x[0])
    z, _ = s.create()
    point("closing one makes room", expect(z is not None, "no room"))
    s.stop()


def soak(n):
    s = Server("--max-sessions", "4", spares=2)

    def cycle():
        sid, _ = s.create()
        r = s.run(sid, "n = sum(range(100))\nprint(n)")
        c = s.tool("close_session", session_id=sid)
        return r.get("stdout") == "4950\n" and not c.get("isError")

    for _ in range(50):  # warm-up: buffers at their high-water mark
        cycle()
    settle(s.pools_full, 10.0)
    rss0, fds0, kids0 = s.rss_kb(), s.fds(), len(s.children())
    t0 = time.monotonic()
    bad = sum(not cycle() for _ in range(n))
    took = time.monotonic() - t0
    settle(lambda: s.pools_full() and not s.scratch_dirs(), 10.0)
    rss, fds, kids = s.rss_kb(), s.fds(), len(s.children())
    print(f"# soak: {n} sessions in {took:.1f} s ({1000 * took / n:.1f} ms "
          f"each); RSS {rss0} -> {rss} kB, fds {fds0} -> {fds}, children "
          f"{kids0} -> {kids}")
    point(f"soak: {n} sessions created, used and closed, all answered",
          expect(bad == 0, f"{bad} failed"))
    # A sanitized build keeps freed memory in ASan's quarantine: its RSS
    # says nothing of leaks (LeakSanitizer checks them at the exit).
    sanitized = os.environ.get("PW_SANITIZED") == "1"
    point("soak: the server's RSS, fds and children stay flat", expect(
        (rss - rss0 < 5 * 1024 or sanitized) and fds <= fds0 and
        kids <= kids0 and
        not s.scratch_dirs(), f"RSS {rss0}->{rss}, fds {fds0}->{fds}, "
        f"children {kids0}->{kids}, scratch {s.scratch_dirs()}"))
    point("soak: the server exits cleanly", expect(s.stop() == 0,
                                                   "exit status"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--soak", type=int, default=1000)
    opts = ap.parse_args()
    s = Server("--instance-id", "testA", "--max-sessions", "8",
               "--max-sessions-per-client", "8", spares=0)
    # The later parts' servers start now: their zygotes import the
    # profiles' modules while the parts before them run.  (Not the
    # soak's: a prepared spare has sent the server its fds, which stay in
    # flight, counted against the sandbox's user, until it is taken.)
    later = [Server("--max-sessions", "40", "--max-sessions-per-client",
                    "40", spares=0),
             Server("--session-ttl", "1", "--session-lifetime", "3",
                    "--max-sessions", "3", "--max-sessions-per-client", "2",
                    spares=0),
             Server("--max-sessions", "2", spares=0)]
    idle = len(settle(lambda: s.children(), 2.0) or [])
    tools_listed(s)
    a, b = handles(s)
    state(s, a)
    audited(s)
    analysis(s)
    fs = workspace(s)
    isolation(s, a, b, fs)
    bad_handles(s, b)
    s.tool("close_session", session_id=a)
    ending_calls(s)
    interrupts(s)
    recursion_limit(s)
    call_stdin(s)
    session_files(s)
    killed_between(s)
    nothing_left(s, idle)
    point("the server exits cleanly on EOF", expect(s.stop() == 0,
                                                    "exit status"))
    forks(later[0])
    limits(later[1], later[2])
    soak(opts.soak)
    return tap.plan()


if __name__ == "__main__":
    sys.exit(main())
