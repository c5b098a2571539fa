# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_requests.py - a large request's JSON is parsed off the
server's loop (src/server/parse.c).  Over HTTP: /healthz, another
token's ping and its short execute_code, sent once the server has read
an 8 MiB /mcp body, are answered before that body is; a Jobe run with a
7 MiB sourcecode likewise; clients gone while their bodies are parsed
leave no fd, child or tree behind, and the next request is answered.
Over stdio, lines are handled in their order: a cancel sent right after
a large request still cancels it, a ping after a large one is answered
after it, and the answers to large lines are those small ones get (a
parse error's message, a batch's, an id past 64 bits).  The order of
the answers is checked, never their times.  Loopback only; TAP on
stdout.
"""
import http.client
import json
import os
import re
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import (HttpServer, ServeClient, all_read,  # noqa: E402
                          wait_for)
from tap import plan, point, skip  # noqa: E402
from raw import rss_kb  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
TOKEN = "requests-a-%d" % os.getpid()
TOKEN2 = "requests-b-%d" % os.getpid()
MiB = 1 << 20
# Small nested lists: the costliest JSON to parse per byte (about 380 ms
# for 8 MiB here, on the loop before the parse worker).
PAD_ITEM = [0, [1]]

def tap(name, cond, detail=""):
    point(cond, name, detail)


def sanitized(pid):
    """True if process PID maps AddressSanitizer's runtime."""
    try:
        with open("/proc/%d/maps" % pid) as f:
            return re.search(r"libasan|libclang_rt\.asan", f.read()) is not None
    except OSError:
        return False


def pad(nbytes):
    """A list whose JSON takes about NBYTES bytes."""
    return [PAD_ITEM] * (nbytes // len(json.dumps(PAD_ITEM) + ", "))


class Server(HttpServer):
    def __init__(self, *args):
        self.dir = tempfile.mkdtemp(prefix="pyward-requests-")
        tokens = os.path.join(self.dir, "tokens")
        with open(tokens, "w") as f:
            f.write(TOKEN + "\n" + TOKEN2 + "\n")
        super().__init__(PYWARD, ["--auth-token-file", tokens, *args])

    def log(self):
        return "".join(self.err)

    def request(self, method, path, body=None, token=TOKEN, jobe=False,
                timeout=120):
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"}
        if token is not None:
            h["X-API-KEY" if jobe else "Authorization"] = (
                token if jobe else "Bearer " + token)
        c = http.client.HTTPConnection("127.0.0.1", self.port,
                                       timeout=timeout)
        try:
            if isinstance(body, (dict, list)):
                body = json.dumps(body)
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.proc.pid))

    def children(self):
        return len([p for p in os.listdir("/proc") if p.isdigit() and
                    ppid(p) == self.proc.pid])

    def rss_kb(self):
        return rss_kb(self.proc.pid)


def ppid(pid):
    try:
        with open("/proc/%s/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def call(code, rid):
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {"code": code}}}


def big_exec_body():
    """An execute_code of nearly 8 MiB: a 3 MiB program (one comment,
    over the 2 MiB --max-code: refused at once once parsed) and small
    nested lists in its _meta."""
    msg = call("#" + "x" * (3 * MiB), "big")
    msg["params"]["_meta"] = {"pad": pad(8 * MiB - 3 * MiB - 4096)}
    return json.dumps(msg).encode()


def order_round(srv, path, body, big_headers, probes):
    """Send BODY to PATH (headers BIG_HEADERS), then, once the server has
    read it, each of PROBES (name, callable) at once.  Returns (the names
    in the order their answers came, {name: answer})."""
    done, answers = [], {}
    lock = threading.Lock()
    sent = threading.Event()

    def big():
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=120)
        c.request("POST", path, body=body, headers=big_headers)
        sent.set()
        r = c.getresponse()
        with lock:
            done.append("big")
            answers["big"] = (r.status, r.read())
        c.close()

    def probe(name, fn):
        r = fn()
        with lock:
            done.append(name)
            answers[name] = r

    b = threading.Thread(target=big)
    b.start()
    sent.wait(60)
    wait_for(lambda: all_read(srv.port), 60)
    ts = [threading.Thread(target=probe, args=p) for p in probes]
    for t in ts:
        t.start()
    for t in ts + [b]:
        t.join(120)
    return done, answers


def mcp_headers(token):
    return {"Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer " + token}


def result_text(raw):
    try:
        msg = json.loads(raw)
    except ValueError:
        return ""
    return json.dumps(msg.get("result", msg.get("error")))


def test_http_order(srv):
    body = big_exec_body()
    probes = [
        ("healthz", lambda: srv.request("GET", "/healthz", token=None)),
        ("ping", lambda: srv.request(
            "POST", "/mcp", {"jsonrpc": "2.0", "id": "p", "method": "ping"},
            token=TOKEN2)),
        ("short", lambda: srv.request("POST", "/mcp", call("print(6*7)", "s"),
                                      token=TOKEN2))]
    done, answers = order_round(srv, "/mcp", body, mcp_headers(TOKEN),
                                probes)
    short = answers.get("short", (0, b""))
    tap("http: /healthz, another token's ping and execute_code sent once "
        "a %d-byte /mcp body is read are answered before it" % len(body),
        done[-1:] == ["big"] and len(done) == 4 and
        answers["healthz"][0] == 200 and answers["ping"][0] == 200 and
        short[0] == 200 and '42' in result_text(short[1]), (done, short))
    big = answers.get("big", (0, b""))
    tap("http: that body gets the answer a small one would (its 3 MiB "
        "program over --max-code)", big[0] == 200 and
        b'"id":"big"' in big[1] and b"'code' is too large" in big[1], big)


def test_parse_turns(srv):
    """A token's four 8 MiB pings sent at once and read, then another
    token's 20 KB execute_code (over the parse worker's 16 KiB too): the
    worker's jobs take turns by client, so that one is answered before
    most of the first token's (it came last when they were parsed in the
    order given)."""
    body = json.dumps({"jsonrpc": "2.0", "id": "a", "method": "ping",
                       "params": {"pad": pad(8 * MiB - 4096)}}).encode()
    done = []
    lock = threading.Lock()

    def post(name, data, token):
        st, raw = srv.request("POST", "/mcp", data, token=token)
        with lock:
            done.append(name if st == 200 else "%s!%d" % (name, st))

    firsts = [threading.Thread(target=post, args=("a%d" % i, body, TOKEN))
              for i in range(4)]
    for t in firsts:
        t.start()
    wait_for(lambda: all_read(srv.port), 60)
    small = json.dumps(call("print(6*7)\n#" + "x" * 20000, "b")).encode()
    second = threading.Thread(target=post, args=("b", small, TOKEN2))
    second.start()
    for t in firsts + [second]:
        t.join(120)
    tap("http: four 8 MiB bodies of a token read, then another token's "
        "20 KB execute_code: answered before most of them (%s)" %
        " ".join(done), len(done) == 5 and "b" in done[:3], done)


def test_jobe_order(srv):
    # A program over the 2 MiB cap (outcome 11 once parsed), and 5 MiB of
    # small nested lists beside it that Jobe ignores: the costliest JSON
    # to parse (about 0.25 s here; a string alone parsed in 0.08 s, close
    # to the probes' own round trips on a busy host).
    spec = {"run_spec": {"language_id": "python3",
                         "sourcecode": "#" + "x" * (2 * MiB + 65536)},
            "pad": pad(5 * MiB)}
    body = json.dumps(spec).encode()
    probes = [
        ("healthz", lambda: srv.request("GET", "/healthz", token=None)),
        ("ping", lambda: srv.request(
            "POST", "/mcp", {"jsonrpc": "2.0", "id": "p", "method": "ping"},
            token=TOKEN2))]
    headers = {"Content-Type": "application/json", "X-API-KEY": TOKEN}
    done, answers = order_round(srv, "/jobe/index.php/restapi/runs", body,
                                headers, probes)
    big = answers.get("big", (0, b""))
    tap("jobe: /healthz and another token's ping sent once a %d-byte run "
        "is read are answered before it" % len(body),
        done[-1:] == ["big"] and len(done) == 3 and
        answers["healthz"][0] == 200 and answers["ping"][0] == 200,
        (done, big))
    small = srv.request("POST", "/jobe/index.php/restapi/runs", {
        "run_spec": {"language_id": "python3",
                     "sourcecode": "#" + "\\" * (3 * MiB)}},
        token=TOKEN, jobe=True)
    tap("jobe: its answer is the one a body parsed on the loop gets "
        "(%d)" % big[0], big[0] == small[0] and
        re.sub(rb'"run_id":"[^"]*"', b"", big[1]) ==
        re.sub(rb'"run_id":"[^"]*"', b"", small[1]), (big, small))
    dup = b'{"run_spec": {"language_id": "python3", "sourcecode": "' + \
        b"#" * (200 * 1024) + b'", "language_id": "python3"}}'
    st, raw = srv.request("POST", "/jobe/index.php/restapi/runs", dup,
                          token=TOKEN, jobe=True)
    st2, raw2 = srv.request(
        "POST", "/jobe/index.php/restapi/runs",
        b'{"run_spec": {"language_id": "python3", "sourcecode": "#", '
        b'"language_id": "python3"}}', token=TOKEN, jobe=True)
    tap("jobe: a large body with a duplicate key is refused as a small "
        "one is (%d %d)" % (st, st2), st == st2 and st >= 400 and
        raw == raw2, (raw[:300], raw2[:300]))


def raw_ping(rid):
    """(the head, the body) of a POST of a ping of nearly 8 MiB (small
    nested lists in its params), to write on a socket by hand."""
    body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "ping",
                       "params": {"pad": pad(8 * MiB - 4096)}}).encode()
    head = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            "%s\r\nContent-Type: application/json\r\nAccept: "
            "application/json\r\nContent-Length: %d\r\n\r\n" %
            (TOKEN, len(body))).encode()
    return head, body


def test_gone(srv):
    """Clients that close their connection while their 8 MiB bodies are
    parsed: no fd, child or tree left, the next request answered."""
    head, body = raw_ping(9)

    def gone_once():
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
        s.sendall(head + body)
        wait_for(lambda: all_read(srv.port), 60)
        s.close()

    gone_once()  # the allocator's arenas grown (twice: two arenas)
    gone_once()
    fds0, kids0 = srv.fds(), srv.children()
    wait_for(lambda: srv.request("GET", "/healthz", token=None)[0] == 200)
    rss0 = srv.rss_kb()
    for _ in range(6):
        gone_once()
    st, raw = srv.request("POST", "/mcp", {"jsonrpc": "2.0", "id": "n",
                                           "method": "ping"})
    tap("http: after clients gone while their bodies are parsed, the next "
        "request is answered", st == 200 and b'"id":"n"' in raw, (st, raw))
    stable = wait_for(lambda: srv.fds() <= fds0 and
                      srv.children() <= kids0, 30)
    tap("http: they leave no fd or child behind (fds %d, children %d "
        "before)" % (fds0, kids0), stable, (srv.fds(), srv.children()))
    grown = srv.rss_kb() - rss0
    # One such body and its tree take over 100 MiB (the first one grows
    # the RSS by that much): six of them kept would take over 600 MiB;
    # the allocator's arenas, shared by two threads, may keep a few
    # dozen MiB more from one body to the next.
    if sanitized(srv.proc.pid):
        # ASan keeps what is freed in its quarantine: RSS counts it.
        skip("http: nor their trees (RSS grew by %d KiB over six)" % grown,
             "a sanitized build (its RSS counts freed memory)")
    else:
        tap("http: nor their trees (RSS grew by %d KiB over six)" % grown,
            grown < 240 * 1024, grown)
    print("# the server saw %d client(s) leave before their answer" %
          srv.log().count("a client left before its answer"), flush=True)


def read_until(c, want, deadline):
    """Lines from C until one whose id is in WANT: the ids in order."""
    seen = []
    while time.monotonic() < deadline:
        line = c.readline(deadline)
        if line is None:
            break
        m = re.match(r'\{"jsonrpc":"2.0","id":("[^"]*"|[0-9.e+-]+|null)',
                     line)
        rid = m.group(1) if m else None
        seen.append((rid, line[:200]))
        if rid in want:
            break
    return seen


def test_stdio():
    err = tempfile.TemporaryFile()
    c = ServeClient(PYWARD, "basic", err, args=("--max-concurrency", "1"))
    try:
        c.call("initialize", {"protocolVersion": "2025-03-26",
                              "capabilities": {},
                              "clientInfo": {"name": "t", "version": "0"}})
        c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        c.call("tools/call", {"name": "execute_code",
                              "arguments": {"code": "print(0)"}}, wait=120)
        # A large request (a long sleep with a 1 MiB comment), its cancel
        # in the same write, then a short run: with one run at a time,
        # the short run is answered first only if the sleep was
        # cancelled.
        sleep = call("import time\ntime.sleep(60)\n#" + "x" * MiB, "sleep")
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": "sleep"}}
        lines = (json.dumps(sleep) + "\n" + json.dumps(cancel) + "\n" +
                 json.dumps(call("print(6*7)", "after")) + "\n")
        c.p.stdin.write(lines.encode())
        c.p.stdin.flush()
        seen = read_until(c, {'"after"', '"sleep"'}, time.monotonic() + 50)
        tap("stdio: a cancel sent right after a large request still "
            "cancels it (the next run answered, the large one never)",
            seen[-1:] and seen[-1][0] == '"after"' and
            all(rid != '"sleep"' for rid, _ in seen), seen)
        # A large ping, then a short one: answered in that order.
        big = {"jsonrpc": "2.0", "id": "bigping", "method": "ping",
               "params": {"pad": pad(4 * MiB)}}
        small = {"jsonrpc": "2.0", "id": "smallping", "method": "ping"}
        c.p.stdin.write((json.dumps(big) + "\n" + json.dumps(small) +
                         "\n").encode())
        c.p.stdin.flush()
        seen = read_until(c, {'"smallping"'}, time.monotonic() + 60)
        tap("stdio: a ping after a large one is answered after it",
            [rid for rid, _ in seen] == ['"bigping"', '"smallping"'], seen)
        # The answers to large lines are those of small ones.
        cases = [
            ("a parse error", '{"jsonrpc":"2.0","id":1,"method":"ping",'
             '"params":{"s":"%s"}' % ("y" * 100000)),
            ("an id past 64 bits", '{"jsonrpc":"2.0","method":"ping",'
             '"params":{"s":"%s"},"id":123456789012345678901234567890}' %
             ("y" * 100000)),
            ("a batch", '[{"jsonrpc":"2.0","id":"b1","method":"ping",'
             '"params":{"s":"%s"}},{"jsonrpc":"2.0","id":"b2",'
             '"method":"ping"}]' % ("y" * 100000)),
        ]
        for name, line in cases:
            small = line.replace("y" * 100000, "y")
            got = []
            for text in (line, small):
                c.p.stdin.write((text + "\n").encode())
                c.p.stdin.flush()
                got.append(c.readline(time.monotonic() + 30))
            pos = re.sub(r"column \d+", "column N", got[0] or "")
            pos2 = re.sub(r"column \d+", "column N", got[1] or "")
            tap("stdio: %s in a large line is answered as in a small one"
                % name, got[0] is not None and pos == pos2, got)
    finally:
        c.p.stdin.close()
        try:
            rc = c.p.wait(60)
        except Exception:
            c.p.kill()
            rc = None
        err.seek(0)
        tap("stdio: the server exits 0 at the end of its input", rc == 0,
            err.read().decode("utf-8", "replace")[-3000:])


def test_gone_mid_body(srv):
    """A client that closes its connection with half of an 8 MiB /mcp body
    sent: the server closes its side long before the idle timeout (300 s
    here)."""
    head, body = raw_ping(10)
    fds0 = srv.fds()
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
    s.sendall(head + body[:len(body) // 2])
    wait_for(lambda: all_read(srv.port), 60)
    s.close()
    closed = wait_for(lambda: srv.fds() <= fds0, 60)
    tap("http: a client gone with half its body sent: its connection "
        "closed before the idle timeout (fds %d before)" % fds0,
        closed, (srv.fds(), srv.log()[-2000:]))


def main():
    test_stdio()
    # An idle timeout longer than any wait here: a connection closed is
    # closed by the server's looks, not by the timeout.
    srv = Server("--jobe", "--idle-timeout", "300")
    try:
        wait_for(lambda: srv.request("GET", "/readyz", token=None)[0] ==
                 200, 120)
        srv.request("POST", "/mcp", call("print(0)", "w"))
        test_http_order(srv)
        test_parse_turns(srv)
        test_jobe_order(srv)
        test_gone(srv)
        test_gone_mid_body(srv)
    finally:
        rc = srv.stop()
        tap("http: the server exits 0 on SIGTERM", rc == 0,
            srv.log()[-3000:])
    return plan()


if __name__ == "__main__":
    sys.exit(main())
