# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_session_files.py - a session's read_file and write_file
over HTTP: round trips of text (escaped as sent, its Content-Length
exact) and bytes, JSON and SSE; the server's loop free while a read_file
of the largest allowed text file is under way (/healthz and another
client's execute_code answered before it); replies of big binary files
owed to clients that do not read hold neither the files' bytes nor their
base64 in memory; a file changed by a concurrent call of the same session
while it is read, a path out of the workspace: refused or answered
well-formed.  Loopback only; TAP on stdout.
"""
import base64
import inspect
import json
import os
import select
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import HttpServer  # noqa: E402
from tap import plan, point  # noqa: E402
from raw import read_all, rss_kb, sse_messages  # noqa: E402
import raw  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
TOKEN = "files-token-%d" % os.getpid()
MIB = 1 << 20
CLIENTS = 6
GROWTH_BOUND_KB = 32 * 1024  # as tests/http/test_replies.py

class Server(HttpServer):
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="pyward-files-")
        tokens = os.path.join(self.dir, "tokens")
        with open(tokens, "w") as f:
            f.write(TOKEN + "\n")
        super().__init__(PYWARD, ["--auth-token-file", tokens,
                                  "--profiles", "basic,filesystem",
                                  "--max-sessions-per-client", "8"])


def tap(name, cond, detail=""):
    point(cond, name, detail)


def post(port, obj, sse=False, rcvbuf=None):
    return raw.post(port, obj, TOKEN, sse, rcvbuf)


def get(port, path):
    return raw.get(port, path, TOKEN)


def call(rid, name, **args):
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": name, "arguments": args}}


def result(port, rid, name, **args):
    status, headers, body = read_all(post(port, call(rid, name, **args)))
    try:
        msg = json.loads(body)
    except ValueError:
        return {"bad": body[:300]}, headers, body
    return msg.get("result") or {"error": msg.get("error")}, headers, body


def text(n):
    """N bytes of UTF-8 text (less a character cut at the end), made as
    bytes: a session's memory limit holds it on a sanitized build too."""
    unit = "line \"%d\"\t\x02\u00e9\u20ac\U0001f600\n" + "x" * 40
    parts = []
    size = 0
    while size < n:
        b = (unit % len(parts)).encode()
        parts.append(b)
        size += len(b)
    out = b"".join(parts)[:n]
    j = len(out)
    while j > 0 and out[j - 1] & 0xC0 == 0x80:
        j -= 1
    if j > 0 and out[j - 1] >= 0xC0:
        lead = out[j - 1]
        need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if len(out) - (j - 1) < need:
            out = out[:j - 1]
    return out


TEXT_SRC = inspect.getsource(text)  # the same, made by a session


def make(srv, sid, path, n):
    """PATH of the session SID made by its program: text(N) (an HTTP body
    holds at most 8 MiB: write_file cannot bring that much)."""
    r, _, _ = result(srv.port, 9, "execute_code", session_id=sid,
                     code=TEXT_SRC + "open(%r, 'wb').write(text(%d))" % (
                         path, n))
    return r


def round_trips(srv, sid):
    for n in (64 * 1024 + 1, 256 * 1024 + 7, 3 * MIB + 5, 8 * MIB):
        t = text(n)
        if n < 4 * MIB:
            w, _, _ = result(srv.port, 1, "write_file", session_id=sid,
                             path="t.txt", content=t.decode())
        else:
            w = make(srv, sid, "t.txt", n)
        r, headers, body = result(srv.port, 2, "read_file", session_id=sid,
                                  path="t.txt")
        sc = r.get("structuredContent", {})
        tap("http: %d bytes of text round trip, Content-Length exact" %
            len(t), not w.get("isError") and
            sc.get("content", "").encode() == t and
            headers.get("content-length") == str(len(body)),
            json.dumps([w, headers, sc.get("size")])[:500])
        if n > 4 * MIB:
            continue
        raw = bytes((i * 13 + 1) % 256 for i in range(n))
        w, _, _ = result(srv.port, 3, "write_file", session_id=sid,
                         path="b.bin",
                         content_base64=base64.b64encode(raw).decode())
        r, headers, body = result(srv.port, 4, "read_file", session_id=sid,
                                  path="b.bin")
        sc = r.get("structuredContent", {})
        tap("http: %d bytes of binary round trip" % n,
            not w.get("isError") and "content" not in sc and
            base64.b64decode(sc.get("content_base64", "")) == raw and
            headers.get("content-length") == str(len(body)),
            json.dumps([w, headers, sc.get("size")])[:500])
    status, headers, body = read_all(post(srv.port, call(
        5, "read_file", session_id=sid, path="t.txt"), sse=True))
    msgs = sse_messages(body) if "text/event-stream" in headers.get(
        "content-type", "") else [json.loads(body)]
    msgs = [m for m in msgs if m.get("id") == 5]
    sc = msgs[0]["result"]["structuredContent"] if msgs else {}
    tap("a client taking SSE: a read_file of 8 MiB of text arrives whole",
        sc.get("content", "").encode() == text(8 * MIB),
        [status, headers, body[:300], body[-300:]])


def loop_free(srv, sid, other):
    """Read_files of the largest allowed text file under way: /healthz
    and another client's execute_code are answered before any of them."""
    big = [post(srv.port, call(10 + i, "read_file", session_id=sid,
                               path="t.txt")) for i in range(4)]
    health = get(srv.port, "/healthz")
    run = post(srv.port, call(20, "execute_code", code="print(6 * 7)",
                              session_id=other))
    order = []
    pending = {s: name for s, name in
               [(health, "healthz"), (run, "execute_code")] +
               [(s, "read_file") for s in big]}
    got = {s: b"" for s in pending}
    deadline = time.monotonic() + 120
    while pending and time.monotonic() < deadline:
        r, _, _ = select.select(list(pending), [], [], 5)
        for s in r:
            chunk = s.recv(1 << 20)
            name = pending[s]
            if name == "read_file" and chunk and not got[s]:
                order.append("read_file begun")
            got[s] += chunk
            if not chunk:
                order.append(name + " done")
                del pending[s]
                s.close()
    first = order.index("read_file begun") if "read_file begun" in order \
        else len(order)
    tap("http: /healthz and another client's execute_code answered before "
        "any of 4 read_files of 8 MiB of text", "healthz done" in
        order[:first] and "execute_code done" in order[:first] and
        b"42" in got[run], order[:8])
    whole = [json.loads(got[s].partition(b"\r\n\r\n")[2])["result"]
             ["structuredContent"]["size"] for s in big]
    tap("and those read_files are answered whole", whole == [8 * MIB] * 4,
        whole)


def unread(srv, sid):
    result(srv.port, 30, "execute_code", session_id=sid,
           code="b = bytes((i * 7919) % 251 for i in range(65536)) * 128\n"
           "b = b[:-1] + bytes([0xff])\nopen('r.bin', 'wb').write(b)")
    r, _, body = result(srv.port, 31, "read_file", session_id=sid,
                        path="r.bin")  # once read: the steady state
    tap("a binary file of 8 MiB is read",
        r.get("structuredContent", {}).get("size") == 8 * MIB and
        "content_base64" in r["structuredContent"], json.dumps(r)[:400])
    fds0 = len(os.listdir("/proc/%d/fd" % srv.proc.pid))
    rss0 = rss_kb(srv.proc.pid)
    socks = [post(srv.port, call(40 + i, "read_file", session_id=sid,
                                 path="r.bin"), rcvbuf=4096)
             for i in range(CLIENTS)]
    heads = [s.recv(64) for s in socks]  # each answer has begun
    time.sleep(0.5)
    rss1 = rss_kb(srv.proc.pid)
    tap("%d read_file replies of 8 MiB of bytes owed to clients that do "
        "not read: the server grew %d KiB (bound %d KiB; it was %d KiB)" % (
            CLIENTS, rss1 - rss0, GROWTH_BOUND_KB, rss0),
        all(h.startswith(b"HTTP/1.1 200") for h in heads) and
        rss1 - rss0 < GROWTH_BOUND_KB, heads)
    for s in socks:
        s.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        fds = len(os.listdir("/proc/%d/fd" % srv.proc.pid))
        if fds <= fds0:
            break
        time.sleep(0.05)
    tap("their clients gone, the files are closed (%d fds, %d before)" % (
        fds, fds0), fds <= fds0)


CHANGES = {
    "grown": "open('t.txt', 'a').write('more' * 100000)",
    "truncated": "open('t.txt', 'r+').truncate(1000)",
    "replaced by a huge file": "import os\nopen('h', 'w').write('y' * "
                               "(9 << 20))\nos.replace('h', 't.txt')",
    "rewritten": "open('t.txt', 'w').write('z' * 100)",
}


def changed(srv, sid):
    """The file read changed by a call of the same session meanwhile."""
    for what, code in CHANGES.items():
        t = text(8 * MIB)
        make(srv, sid, "t.txt", 8 * MIB)
        reader = post(srv.port, call(51, "read_file", session_id=sid,
                                     path="t.txt"))
        result(srv.port, 52, "execute_code", session_id=sid, code=code)
        status, headers, body = read_all(reader)
        try:
            r = json.loads(body)["result"]
        except (ValueError, KeyError) as e:
            r = None
            print("# %s: %r ... %r" % (e, body[:200], body[-200:]))
        sc = (r or {}).get("structuredContent", {})
        c = sc.get("content", "").encode()
        cut = len(body) < int(headers.get("content-length", "0"))
        good = cut or r is not None and (
            (r.get("isError") and "changed" in r["content"][0]["text"]) or
            c == t or (c.endswith(b" ") and t.startswith(c.rstrip(b" "))))
        tap("a file %s while read_file reads it: refused, answered "
            "well-formed with its bytes, or cut short of its length" % what,
            good,
            json.dumps([status, headers, r and r.get("isError"),
                        len(c)])[:400])
    for path in ("../x", "/etc/passwd", "output/../../x"):
        r, _, _ = result(srv.port, 60, "read_file", session_id=sid,
                         path=path)
        w, _, _ = result(srv.port, 61, "write_file", session_id=sid,
                         path=path, content="x" * (100 * 1024))
        tap("%r: refused by read_file and a long write_file" % path,
            r.get("isError") and w.get("isError") and
            "out of the workspace" in r["content"][0]["text"] and
            "out of the workspace" in w["content"][0]["text"],
            json.dumps([r, w])[:400])
    # Clients gone as soon as their write_files are sent.
    raw = bytes((i * 31 + 7) % 256 for i in range(4 * MIB))
    for i in range(3):
        post(srv.port, call(70 + i, "write_file", session_id=sid,
                            path="gone%d.bin" % i,
                            content_base64=base64.b64encode(raw).decode())
             ).close()
    names = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        r, _, _ = result(srv.port, 62, "list_files", session_id=sid)
        names = [e["name"] for e in r["structuredContent"]["entries"]]
        if not any(n.startswith(".pyward") for n in names):
            break
        time.sleep(0.1)
    tap("no temporary file left, clients gone mid-write or not",
        not any(n.startswith(".pyward") for n in names), names)


def main():
    srv = Server()
    try:
        r, _, _ = result(srv.port, 0, "create_session",
                         profile=["basic", "filesystem"])
        sid = r["structuredContent"]["session_id"]
        r, _, _ = result(srv.port, 0, "create_session", profile="basic")
        other = r["structuredContent"]["session_id"]
        round_trips(srv, sid)
        loop_free(srv, sid, other)
        unread(srv, sid)
        changed(srv, sid)
    finally:
        rc = srv.stop()
        tap("the server exits 0 on SIGTERM", rc == 0, "".join(srv.err)[-2000:])
    return plan()


if __name__ == "__main__":
    sys.exit(main())
