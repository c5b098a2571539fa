# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_replies.py - large replies: a run's output files and
long streams reach the client byte for byte over stdio, an HTTP JSON body
(its Content-Length exact) and an SSE stream; replies owed to clients
that do not read hold neither the files' bytes nor copies of them in the
server's memory (VmRSS under the bound doc/DEPLOY.md states), their
fds are closed when the clients go, and the files held open for them are
capped (a quarter of RLIMIT_NOFILE); a file a session's next call changes
before its reply is written never arrives as a whole reply with other
bytes than the run left.  Loopback only; TAP on stdout.
"""
import base64
import json
import os
import re
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import HttpServer, ServeClient, wait_for  # noqa: E402
from tap import plan, point  # noqa: E402
from raw import read_all, rss_kb, sse_messages  # noqa: E402
import raw  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
TOKEN = "replies-token-%d" % os.getpid()
PROFILES = "basic,filesystem"
# Sizes around the 48 KiB chunk a file is read by (core/blob.h), and 0.
SIZES = [0, 1, 2, 3, 49151, 49152, 49153, 98304, 98305, 200000]
# The bound on the server's growth with CLIENTS replies of 8 MiB of
# files owed and unread (doc/DEPLOY.md, "Memory").
CLIENTS = 6
GROWTH_BOUND_KB = 32 * 1024

def pattern(n, seed):
    """N bytes the program writes too (the same formula)."""
    return bytes(((i * 7919 + seed) % 251) for i in range(n))


PNG = b"\x89PNG\r\n\x1a\n"
# Escapes of every kind, past the length from which a string is a
# segment of its own (core/reply.h).
STDOUT = ('q"b\\c\x01\x1f\t\r\x7f\u00e9\u4e2d\U0001f600 ' * 40 + "\n") * 40

PROGRAM_TEXT = r'''
def pattern(n, seed):
    return bytes(((i * 7919 + seed) % 251) for i in range(n))
for k, n in enumerate(SIZES):
    open("output/f%02d.bin" % k, "wb").write(pattern(n, k))
open("output/img.png", "wb").write(b"\x89PNG\r\n\x1a\n" + pattern(70000, 99))
print(STDOUT, end="")
for _ in range(SPIN):
    pass
'''


def program(spin):
    """PROGRAM_TEXT, busy for SPIN turns of a loop at its end."""
    return ("SIZES = %r\nSTDOUT = %r\nSPIN = %d\n" % (SIZES, STDOUT, spin)
            + PROGRAM_TEXT)


BAD_UTF8 = ('import sys\nsys.stdout.buffer.write(b"a\\xed\\xa0\\x80b\\xe0\\x80'
            '\\x80c\\xf4\\x90\\x80\\x80d\\xc3\\xa9")\n')


def expected_files():
    files = {"f%02d.bin" % k: pattern(n, k) for k, n in enumerate(SIZES)}
    files["img.png"] = PNG + pattern(70000, 99)
    return files


def check_result(label, msg):
    """The points of one reply MSG (parsed) of PROGRAM."""
    res = (msg or {}).get("result", {})
    sc = res.get("structuredContent", {})
    tap("%s: the run is ok" % label, sc.get("status") == "ok",
        json.dumps(sc)[:2000])
    tap("%s: stdout comes back as printed (escapes of every kind)" % label,
        sc.get("stdout") == STDOUT, repr(sc.get("stdout", ""))[:300])
    want = expected_files()
    got = {}
    kinds = {}
    for item in res.get("content", []):
        if item.get("type") == "image":
            got["img.png"] = base64.b64decode(item["data"], validate=True)
            kinds["img.png"] = "image"
        elif item.get("type") == "resource":
            name = item["resource"]["uri"].rsplit("/", 1)[1]
            got[name] = base64.b64decode(item["resource"]["blob"],
                                         validate=True)
            kinds[name] = "resource"
    bad = [n for n in want if got.get(n) != want[n]]
    tap("%s: every file's bytes round-trip (sizes %s, an image)" % (
        label, SIZES), not bad and set(got) == set(want),
        "differ: %s; got %s" % (bad, sorted(got)))
    tap("%s: the PNG is an image item, the others resources" % label,
        kinds.get("img.png") == "image" and
        all(kinds.get(n) == "resource" for n in want if n != "img.png"),
        kinds)
    sizes = {f["name"]: f["size"] for f in sc.get("files", [])}
    tap("%s: each file's size is listed" % label,
        all(sizes.get(n) == len(want[n]) for n in want), sizes)


def test_stdio():
    err = tempfile.TemporaryFile()
    c = ServeClient(PYWARD, PROFILES, err)
    try:
        # 2025-03-26: the last version with JSON-RPC batches.
        c.call("initialize", {"protocolVersion": "2025-03-26",
                              "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}})
        c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        line, msg = c.call("tools/call", {
            "name": "execute_code",
            "arguments": {"code": program(0), "profile": "filesystem"}},
            wait=120)
        tap("stdio: the reply is one JSON line", msg is not None,
            (line or "")[:300])
        check_result("stdio", msg)
        # Bytes that are not UTF-8 as RFC 3629 has it (a surrogate, an
        # overlong form, past U+10FFFF) each become U+FFFD, the rest kept.
        _, msg = c.call("tools/call", {
            "name": "execute_code",
            "arguments": {"code": BAD_UTF8, "profile": "basic"}})
        out = ((msg or {}).get("result", {}).get("structuredContent", {})
               .get("stdout"))
        tap("stdio: invalid UTF-8 in stdout becomes U+FFFD byte by byte",
            out == "a" + "\ufffd" * 3 + "b" + "\ufffd" * 3 + "c" +
            "\ufffd" * 4 + "d\u00e9", repr(out))
        # A batch carries the same reply inside its array.
        c.send([{"jsonrpc": "2.0", "id": 900, "method": "tools/call",
                 "params": {"name": "execute_code",
                            "arguments": {"code": program(0),
                                          "profile": "filesystem"}}},
                {"jsonrpc": "2.0", "id": 901, "method": "ping"}])
        deadline = time.monotonic() + 120
        batch = None
        while batch is None:
            line = c.readline(deadline)
            if line is None:
                break
            m = json.loads(line)
            batch = m if isinstance(m, list) else None
        by_id = {m.get("id"): m for m in batch or []}
        tap("stdio: a batch holds both replies", set(by_id) == {900, 901},
            sorted(by_id))
        check_result("stdio batch", by_id.get(900))
    finally:
        c.p.stdin.close()
        c.p.wait(60)


class Server(HttpServer):
    def __init__(self, *args, preexec_fn=None):
        self.dir = tempfile.mkdtemp(prefix="pyward-replies-")
        tokens = os.path.join(self.dir, "tokens")
        with open(tokens, "w") as f:
            f.write(TOKEN + "\n")
        super().__init__(PYWARD, ["--auth-token-file", tokens,
                                  "--profiles", PROFILES, *args],
                         preexec_fn=preexec_fn)

    def log(self):
        return "".join(self.err)


def tap(name, cond, detail=""):
    point(cond, name, detail)


def post_head(port, obj, sse=False, rcvbuf=None):
    """A socket with a POST of OBJ to /mcp sent (Connection: close)."""
    return raw.post(port, obj, TOKEN, sse, rcvbuf)


def read_get(port, path):
    return read_all(raw.get(port, path, TOKEN))


def exec_call(rid, code, meta=None, session=None):
    args = {"code": code, "profile": "filesystem"}
    if session is not None:
        args = {"code": code, "session_id": session}
    params = {"name": "execute_code", "arguments": args}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": params}


def test_http(srv):
    status, headers, body = read_all(post_head(srv.port,
                                               exec_call(1, program(0))))
    tap("http: 200 and a Content-Length", status == 200 and
        "content-length" in headers, (status, headers))
    tap("http: the Content-Length is the body's length (%s)" %
        headers.get("content-length"),
        headers.get("content-length") == str(len(body)),
        "%s vs %d" % (headers.get("content-length"), len(body)))
    try:
        msg = json.loads(body)
    except ValueError as e:
        msg = None
        tap("http: the body is JSON", False, e)
    check_result("http json", msg)
    # SSE: a progress token and a run long enough for a notification.
    status, headers, body = read_all(post_head(
        srv.port, exec_call(2, program(30000000), {"progressToken": "p"}),
        sse=True))
    msgs = sse_messages(body)
    tap("sse: answered as an event stream with progress before the reply",
        status == 200 and "text/event-stream" in
        headers.get("content-type", "") and
        any(m.get("method") == "notifications/progress" for m in msgs),
        (status, headers, [m.get("method", m.get("id")) for m in msgs]))
    check_result("sse", next((m for m in msgs if m.get("id") == 2), None))


def metric(srv, name):
    _, _, body = read_get(srv.port, "/metrics")
    total = 0
    for line in body.decode().splitlines():
        if line.startswith(name):
            total += float(line.rsplit(" ", 1)[1])
    return total


EIGHT_MIB = r'''
b = bytes((i * 7919) % 251 for i in range(65536)) * 64
for i in range(2):
    open("output/f%d.bin" % i, "wb").write(b)
print("x" * 100000)
'''


def test_unread(srv):
    """CLIENTS clients each owed a reply with 8 MiB of files, none
    reading: the server's memory stays within the bound, and their fds
    go with them."""
    # The same reply once, read: the allocator's steady state.
    status, _, body = read_all(post_head(srv.port, exec_call(10, EIGHT_MIB)))
    sizes = re.findall(rb'"size":(\d+)', body)
    tap("a reply with 8 MiB of files (%d bytes) lists both" % len(body),
        status == 200 and sizes == [b"4194304", b"4194304"], sizes)
    wait_for(lambda: metric(srv, "pyward_runs_in_flight") == 0, 60)
    fds0 = len(os.listdir("/proc/%d/fd" % srv.proc.pid))
    answered0 = metric(srv, "pyward_runs_total")
    rss0 = rss_kb(srv.proc.pid)
    socks = [post_head(srv.port, exec_call(20 + i, EIGHT_MIB), rcvbuf=4096)
             for i in range(CLIENTS)]
    wait_for(lambda: metric(srv, "pyward_runs_total") >= answered0 + CLIENTS,
             120)
    answered = metric(srv, "pyward_runs_total") - answered0
    rss1 = rss_kb(srv.proc.pid)
    tap("%d replies of 8 MiB of files owed to clients that do not read: "
        "the server grew %d KiB (bound %d KiB; it was %d KiB)" % (
            CLIENTS, rss1 - rss0, GROWTH_BOUND_KB, rss0),
        answered == CLIENTS and rss1 - rss0 < GROWTH_BOUND_KB,
        "answered %d" % answered)
    # Each socket got the start of its reply (its head: 200).
    heads = [s.recv(64) for s in socks]
    tap("each unread reply began (200)",
        all(h.startswith(b"HTTP/1.1 200") for h in heads), heads)
    for s in socks:
        s.close()
    fds = wait_for(lambda: len(os.listdir("/proc/%d/fd" % srv.proc.pid))
                   <= fds0 and len(os.listdir("/proc/%d/fd" %
                                              srv.proc.pid)), 60)
    tap("their clients gone, the server's fds are back to %d (%s)" % (
        fds0, fds), fds and fds <= fds0)


def session_new(srv, rid):
    _, _, body = read_all(post_head(srv.port, {
        "jsonrpc": "2.0", "id": rid, "method": "tools/call",
        "params": {"name": "create_session",
                   "arguments": {"profile": "filesystem"}}}))
    sc = json.loads(body)["result"].get("structuredContent", {})
    return sc.get("session_id")


TWO_FILES = r'''
b = bytes((i * 7919 + 5) % 251 for i in range(65536)) * 64
for i in range(2):
    open("output/g%d.bin" % i, "wb").write(b)
'''
CHANGE = r'''
for i in range(2):
    f = open("output/g%d.bin" % i, "r+b")
    f.write(b"changed")
    f.close()
'''


def original():
    return bytes((i * 7919 + 5) % 251 for i in range(65536)) * 64


def test_changed_http(srv):
    """A session's file rewritten by its next call while the reply of the
    call that made it is still being written: the reply is whole only
    with the run's bytes; otherwise it is cut short of its length."""
    sid = session_new(srv, 40)
    tap("http: a session is made", sid is not None)
    s = post_head(srv.port, exec_call(41, TWO_FILES, session=sid),
                  rcvbuf=4096)
    first = s.recv(4096)  # the reply has begun
    _, _, body = read_all(post_head(srv.port,
                                    exec_call(42, CHANGE, session=sid)))
    tap("http: the next call rewrote the files",
        b'"status":"ok"' in body, body[:300])
    rest = b""
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        rest += chunk
    s.close()
    head, _, payload = (first + rest).partition(b"\r\n\r\n")
    m = re.search(rb"(?i)content-length:\s*(\d+)", head)
    whole = m is not None and int(m.group(1)) == len(payload)
    good = False
    if whole:
        res = json.loads(payload)["result"]
        blobs = [base64.b64decode(i["resource"]["blob"])
                 for i in res["content"] if i.get("type") == "resource"]
        good = blobs == [original(), original()]
    tap("http: the changed file's reply is whole with the run's bytes, or "
        "cut short of its Content-Length (%s)" % (
            "whole" if whole else "cut short"), good or not whole)
    if not whole:
        tap("http: the server says why it cut the reply",
            "changed after its run ended" in srv.log(), srv.log()[-2000:])


def test_changed_stdio():
    """The same over stdio, where the line must stay well-formed: the
    reply keeps its announced size, the file's bytes from the change on
    sent as zeros, and the server says so on stderr."""
    err = tempfile.NamedTemporaryFile()
    c = ServeClient(PYWARD, PROFILES, err)
    try:
        c.call("initialize", {"protocolVersion": "2025-06-18",
                              "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}})
        _, msg = c.call("tools/call", {"name": "create_session",
                                       "arguments": {"profile":
                                                     "filesystem"}})
        sid = msg["result"]["structuredContent"]["session_id"]
        # Sent without reading: the first reply waits in the pipe while
        # the second call runs (once the first ended: a session runs one
        # call at a time), until its run has ended (the event log's
        # records).
        def ran(rid):
            with open(err.name, errors="replace") as f:
                return '"request":"%d"' % rid in f.read()
        c.send(exec_call(51, TWO_FILES, session=sid))
        first = wait_for(lambda: ran(51), 120)
        c.send(exec_call(52, CHANGE, session=sid))
        tap("stdio: the second call ran before the first reply was read",
            first and wait_for(lambda: ran(52), 120))
        got = {}
        deadline = time.monotonic() + 120
        while len(got) < 2:
            line = c.readline(deadline)
            if line is None:
                break
            m = json.loads(line)
            if m.get("id") in (51, 52):
                got[m["id"]] = m
        tap("stdio: both calls answered with JSON lines, the second ok",
            len(got) == 2 and got[52].get("result", {})
            .get("structuredContent", {}).get("status") == "ok",
            json.dumps(got.get(52))[:500])
        res = got.get(51, {}).get("result", {})
        blobs = [base64.b64decode(i["resource"]["blob"])
                 for i in res.get("content", [])
                 if i.get("type") == "resource"]
        orig = original()
        ok = len(blobs) == 2
        changed = False
        for b in blobs:
            k = 0
            while k < len(b) and k < len(orig) and b[k] == orig[k]:
                k += 1
            ok = ok and len(b) == len(orig) and b[k:] == bytes(len(b) - k)
            changed = changed or k < len(b)
        with open(err.name, errors="replace") as f:
            log = f.read()
        tap("stdio: each file keeps its size: the run's bytes, then zeros "
            "from a change on (%s)" % ("changed" if changed else "whole"),
            ok, [len(b) for b in blobs])
        tap("stdio: zeros only with the server's warning",
            not changed or "changed after its run ended" in log, log[-1000:])
    finally:
        c.p.stdin.close()
        c.p.wait(60)


SIXTEEN = r'''
b = (bytes((i * 7919) % 251 for i in range(65536)) * 64)[1024:]
for i in range(2):
    open("output/a%d.bin" % i, "wb").write(b)
for i in range(14):
    open("output/s%02d.txt" % i, "w").write("small")
'''


def low_nofile():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def test_fd_cap():
    """With RLIMIT_NOFILE 256 the server keeps at most 64 files open for
    replies not yet written: a fifth unread reply of 16 files lists its
    files as not sent, and once the readers go, files are sent again."""
    srv = Server(preexec_fn=low_nofile)
    try:
        socks = []
        for i in range(4):
            socks.append(post_head(srv.port, exec_call(60 + i, SIXTEEN),
                                   rcvbuf=4096))
            socks[-1].recv(64)  # its reply has begun: its files are open
        status, _, body = read_all(post_head(srv.port,
                                             exec_call(70, SIXTEEN)))
        files = json.loads(body)["result"]["structuredContent"]["files"]
        refused = [f for f in files if not f["sent"]]
        tap("past 64 files held for unread replies, a reply lists its "
            "files as not sent (%d of %d)" % (len(refused), len(files)),
            len(files) == 16 and len(refused) == 16 and
            all("too many files" in f["reason"] for f in refused),
            json.dumps(files)[:600])
        for s in socks:
            s.close()

        def sent_again():
            _, _, body = read_all(post_head(srv.port,
                                            exec_call(71, SIXTEEN)))
            files = json.loads(body)["result"]["structuredContent"]["files"]
            return all(f["sent"] for f in files) and len(files) == 16
        tap("the readers gone, the files are sent again",
            wait_for(sent_again, 60))
    finally:
        rc = srv.stop()
        tap("the server with RLIMIT_NOFILE 256 exits 0 on SIGTERM", rc == 0,
            srv.log()[-3000:])


def main():
    test_stdio()
    test_changed_stdio()
    srv = Server()
    try:
        test_http(srv)
        test_unread(srv)
        test_changed_http(srv)
    finally:
        rc = srv.stop()
        tap("the server exits 0 on SIGTERM", rc == 0, srv.log()[-3000:])
    test_fd_cap()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
