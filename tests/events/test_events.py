# SPDX-License-Identifier: Apache-2.0
"""tests/events/test_events.py - the security event log of `pyward serve`.

The event stream is read back and the right records looked for: over
stdio (--event-log FILE, --log-code) an accepted run, a validator
rejection, an audit refusal, a seccomp kill, a timeout and grade_code's
runs and rejection, each with its client, run id and code digest; code
and stdin holding newlines, quotes, escapes and lines that look like
records, none of which breaks a record; a flood of rejections
summarized by the rate limit (every refusal either written or counted
in a summary); the records as journald's native protocol on a socket of
the test's.  Over HTTP (--auth-token-file, --jobe, the records on
stderr by default) an authentication failure, refused Origins (one not
UTF-8) and Host, runs of a named and an unnamed token, a Jobe run and
key failure, another client's session handle, with the right client
names, no token in any record or in /metrics, and the per-client
counters of /metrics; --jobe-keys' refusals.  `pyward judge
--event-log`: its runs' records and a refused program's refusal.  A
guard refusal through an unvalidated server.  A reader that does not
read: every call answered, every record written or counted as dropped;
on a stderr pipe, at most half of it taken.  TAP on stdout.
"""
import hashlib
import http.client
import json
import os
import fcntl
import re
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import ServeClient  # noqa: E402 - the tests' own module
from tap import plan, point  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
BURST = 50  # PW_EVENTS_BURST (src/server/events.h)


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def records(text):
    """The event records of TEXT (lines that are JSON objects with an
    "event"), and the lines that start like a record but do not parse."""
    good, bad = [], []
    for line in text.splitlines():
        if not line.startswith("{"):
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            bad.append(line)
            continue
        if isinstance(rec, dict) and "event" in rec:
            good.append(rec)
    return good, bad


def execute(code, **extra):
    return {"name": "execute_code", "arguments": {"code": code, **extra}}


def run_id_of(msg):
    sc = (msg or {}).get("result", {}).get("structuredContent", {})
    return sc.get("execution_id"), sc.get("status")


# --- stdio ----------------------------------------------------------------

def test_stdio(tmp):
    log = os.path.join(tmp, "events.jsonl")
    srv = ServeClient(PYWARD, "basic,filesystem", subprocess.DEVNULL,
                      args=("--event-log", log, "--log-code"))
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "events", "version": "1"}})
    srv.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    ok_code = "print('hello')\n"
    rejected = "__import__('os').system('id')\n"
    seccomp = "import time\ntime.clock_settime(time.CLOCK_REALTIME, 0)\n"
    audit = "import io\nprint(io.open('/etc/passwd').read())\n"
    spin = "while True:\n    pass\n"
    # Code a record must carry whole: lines, quotes, escapes, a line
    # that looks like a record, a line separator, a tab and a DEL.
    nasty = ('s = "a\\"b"\n'
             '{"event": "forged", "client": "x"}\n'
             'x = "\u2028\\x00\t\x7f"\n'
             'print(input())\n')
    nasty_stdin = '{"event": "forged"}\n\\x00\n'
    runs = {}
    for name, code, extra in [
            ("ok", ok_code, {}),
            ("rejected", rejected, {}),
            ("seccomp", seccomp, {}),
            ("audit", audit, {"profile": "filesystem"}),
            ("timeout", spin, {"timeout": 1}),
            ("nasty", nasty, {"stdin": nasty_stdin})]:
        _, msg = srv.call("tools/call", execute(code, **extra), wait=60)
        runs[name] = run_id_of(msg)
    suite = {"tests": [{"stdin": "1\n", "expected_stdout": "1\n"},
                       {"stdin": "2\n", "expected_stdout": "2\n"}]}
    _, gmsg = srv.call("tools/call", {"name": "grade_code", "arguments": {
        "code": "print(input())\n", "tests": suite}}, wait=60)
    srv.call("tools/call", {"name": "grade_code", "arguments": {
        "code": "eval(input())\n", "tests": suite}}, wait=60)
    # A flood: every rejection is written or counted in a summary.
    flood = 400
    for i in range(flood):
        srv.send({"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call",
                  "params": execute("eval('%d')\n" % i)})
    got = 0
    deadline = time.monotonic() + 120
    while got < flood:
        line = srv.readline(deadline)
        if line is None:
            break
        try:
            got += json.loads(line).get("id", 0) >= 1000
        except (ValueError, AttributeError, TypeError):
            pass
    srv.p.stdin.close()
    srv.p.wait(60)
    with open(log, encoding="ascii") as f:
        text = f.read()
    recs, bad = records(text)
    point(not bad and text.endswith("\n") and
          len(recs) == len(text.splitlines()),
          "every line of the event log is one JSON record", bad[:3])
    point(all(ord(c) < 128 for c in text),
          "the records are ASCII (every other character escaped)")
    run = {r["run_id"]: r for r in recs if r["event"] == "run"}
    ref = [r for r in recs if r["event"] == "refusal"]

    rid, st = runs["ok"]
    r = run.get(rid, {})
    point(st == "ok" and r.get("verdict") == "ok",
          "an accepted run has its record", (st, json.dumps(r)))
    point(r.get("verdict") == "ok" and r.get("client") == "stdio" and
          r.get("door") == "stdio" and r.get("tool") == "execute_code" and
          r.get("code_sha256") == sha(ok_code) and r.get("code") == ok_code
          and r.get("exit_code") == 0 and r.get("stdout_bytes") == 6 and
          r.get("blocked") is None and r.get("request") == "2" and
          isinstance(r.get("cpu_s"), float) and r.get("max_rss_kb", 0) > 0
          and r.get("limits", {}).get("memory_bytes", 0) > 0,
          "its fields: door, client, verdict, exit, sizes, limits, digest",
          json.dumps(r))

    rej = [x for x in ref if x.get("layer") == "validator"
           and x.get("code_sha256") == sha(rejected)]
    point(len(rej) == 1 and rej[0]["client"] == "stdio" and
          rej[0]["run_id"] == runs["rejected"][0] and
          rej[0]["name"].startswith("PW") and
          rej[0]["name"] in rej[0].get("codes", []) and
          runs["rejected"][0] not in run,
          "a validator rejection: a refusal with its codes, no run",
          json.dumps(rej))

    rid = runs["seccomp"][0]
    k = [x for x in ref if x.get("run_id") == rid]
    point(run.get(rid, {}).get("verdict") == "killed" and
          run[rid].get("blocked") == {"layer": "seccomp",
                                      "name": "clock_settime"} and
          len(k) == 1 and k[0]["layer"] == "seccomp" and
          k[0]["name"] == "clock_settime" and k[0]["client"] == "stdio",
          "a seccomp kill: the run's record and a refusal naming the call",
          json.dumps([run.get(rid), k]))

    rid = runs["audit"][0]
    a = [x for x in ref if x.get("run_id") == rid]
    point(run.get(rid, {}).get("profile") == "filesystem" and
          len(a) == 1 and a[0]["layer"] == "audit" and
          a[0]["name"] == "open" and a[0]["client"] == "stdio",
          "an audit refusal names the event, with the run's id",
          json.dumps([run.get(rid), a]))

    rid = runs["timeout"][0]
    t = [x for x in ref if x.get("run_id") == rid]
    point(run.get(rid, {}).get("verdict") == "timeout" and
          run[rid]["limits"]["timeout_s"] == 1 and
          run[rid]["wall_s"] >= 1 and
          len(t) == 1 and t[0]["layer"] == "limits" and
          t[0]["name"] == "time",
          "a run that outlived its time: its record and a limits refusal",
          json.dumps([run.get(rid), t]))

    rid = runs["nasty"][0]
    n = run.get(rid, {})
    point(n.get("code") == nasty and n.get("code_sha256") == sha(nasty) and
          n.get("stdin_bytes") == len(nasty_stdin.encode()) and
          not [x for x in recs if x.get("event") == "forged"],
          "code and stdin with newlines, quotes, NUL and record-like text "
          "stay inside their record", json.dumps(n)[:2000])
    g = [x for x in run.values() if x.get("tool") == "grade_code"]
    point(len(g) == 2 and len({x["request"] for x in g}) == 1 and
          all(x["verdict"] == "ok" and
              x["code_sha256"] == sha("print(input())\n") for x in g),
          "grade_code: a record per test run", json.dumps(g))
    gr = [x for x in ref if x.get("tool") == "grade_code"]
    point(len(gr) == 1 and gr[0]["layer"] == "validator" and
          gr[0]["code_sha256"] == sha("eval(input())\n") and
          gr[0]["name"] in gr[0]["codes"],
          "grade_code's rejected program is a validator refusal",
          json.dumps(gr))

    flood_sha = {sha("eval('%d')\n" % i) for i in range(flood)}
    fl = [x for x in ref if x.get("layer") == "validator" and
          x.get("code_sha256") in flood_sha]
    summ = [x for x in recs if x["event"] == "refusals_suppressed"]
    dropped = sum(x["count"] for x in summ)
    point(got == flood, "the flood of %d rejections was answered" % flood,
          got)
    point(len(fl) < flood and summ and
          all(x["client"] == "stdio" for x in summ),
          "a flood of refusals is rate-limited and summarized",
          "%d written, %d summarized" % (len(fl), dropped))
    point(len(fl) + dropped == flood and len(fl) >= BURST - 10,
          "every refusal of the flood is written or counted in a summary",
          "%d written + %d summarized != %d" % (len(fl), dropped, flood))


# --- journald's native protocol --------------------------------------------

def journal_fields(data):
    """The fields of one native-protocol datagram: KEY=VALUE lines, or
    KEY, a newline, a 64-bit little-endian size and that many bytes."""
    out, i = {}, 0
    while i < len(data):
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if b"=" in line:
            k, _, v = line.partition(b"=")
            i = nl + 1
        else:
            k = line
            n = int.from_bytes(data[nl + 1:nl + 9], "little")
            v = data[nl + 9:nl + 9 + n]
            if data[nl + 9 + n:nl + 10 + n] != b"\n":
                raise ValueError("no newline after a binary field")
            i = nl + 10 + n
        out[k.decode()] = v.decode("utf-8")
    return out


def test_journal(tmp):
    path = os.path.join(tmp, "journal.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(30)
    srv = ServeClient(PYWARD, "basic", subprocess.DEVNULL,
                      args=("--event-log", "journal:" + path, "--log-code"))
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "events", "version": "1"}})
    code = "print('a')\nprint('b')\n"
    srv.call("tools/call", execute(code), wait=60)
    srv.call("tools/call", execute("__import__('os')\n"), wait=60)
    srv.p.stdin.close()
    srv.p.wait(60)
    got = []
    sock.settimeout(0.5)
    try:
        while True:
            got.append(sock.recv(1 << 20))
    except socket.timeout:
        pass
    sock.close()
    try:
        ents = [journal_fields(d) for d in got]
    except (ValueError, UnicodeDecodeError) as e:
        point(False, "journal datagrams parse", repr(e))
        return
    run = [e for e in ents if e.get("PYWARD_EVENT") == "run"]
    ref = [e for e in ents if e.get("PYWARD_EVENT") == "refusal"]
    point(len(run) == 1 and run[0].get("PYWARD_CODE") == code and
          run[0].get("PYWARD_CLIENT") == "stdio" and
          run[0].get("PYWARD_VERDICT") == "ok" and
          run[0].get("SYSLOG_IDENTIFIER") == "pyward" and
          run[0].get("PRIORITY") == "6" and
          json.loads(run[0].get("PYWARD_RECORD", "{}")).get("code") == code,
          "journald gets a run's fields (a field with newlines in the "
          "binary form) and its record", json.dumps(ents)[:2000])
    point(len(ref) == 1 and ref[0].get("PYWARD_LAYER") == "validator" and
          ref[0].get("PRIORITY") == "4" and
          "refusal" in ref[0].get("MESSAGE", ""),
          "journald gets a refusal at warning priority", json.dumps(ref))


# --- HTTP -----------------------------------------------------------------

class HttpServer:
    """`pyward serve --http 127.0.0.1:0 --jobe` with tokens; the event
    records come on stderr (the default)."""

    def __init__(self, tmp, tokens, keys=None):
        tf = os.path.join(tmp, "tokens" if keys is None else "keys")
        with open(tf, "w") as f:
            f.write("# named and not\n" + "\n".join(tokens or keys) + "\n")
        auth = ["--auth-token-file", tf] if keys is None else \
            ["--jobe-keys", tf]
        self.proc = subprocess.Popen(
            [PYWARD, "serve", "--http", "127.0.0.1:0", "--jobe",
             "--jobe-files", os.path.join(tmp, "files"), *auth,
             "--profiles", "basic", "--log-level", "info"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        self.err = []
        self.port = None
        ready = threading.Event()

        def reader():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.err.append(line)
                m = re.search(r"serving MCP on http://[^ ]+:(\d+)/mcp", line)
                if m:
                    self.port = int(m.group(1))
                    ready.set()
            ready.set()

        self.thread = threading.Thread(target=reader, daemon=True)
        self.thread.start()
        ready.wait(60)
        if self.port is None:
            raise RuntimeError("no port: " + "".join(self.err))

    def request(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        data = json.dumps(body).encode() if body is not None else None
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"}
        h.update(headers or {})
        c.request(method, path, data, h)
        r = c.getresponse()
        out = r.status, r.read().decode("utf-8", "replace")
        c.close()
        return out

    def raw(self, data):
        """Send the bytes DATA, return the status line's code."""
        with socket.create_connection(("127.0.0.1", self.port), 30) as so:
            so.sendall(data)
            head = so.recv(4096)
        m = re.match(rb"HTTP/1\.[01] (\d+)", head)
        return int(m.group(1)) if m else None

    def mcp(self, token, method, params, rid=1):
        hdr = {"Authorization": "Bearer " + token} if token else {}
        return self.request("POST", "/mcp",
                            {"jsonrpc": "2.0", "id": rid, "method": method,
                             "params": params}, hdr)

    def stop(self):
        self.proc.terminate()
        rc = self.proc.wait(60)
        self.thread.join(10)
        return rc


def test_http(tmp):
    alice, other = "alice-secret-0123456789", "other-secret-9876543210"
    srv = HttpServer(tmp, ["alice " + alice, other])
    unnamed = "token:token-" + sha(other)[:12]
    st, _ = srv.mcp("wrong-token", "ping", {})
    st2, _ = srv.mcp(None, "ping", {})
    st3, _ = srv.request("POST", "/mcp", {"jsonrpc": "2.0", "id": 1,
                                          "method": "ping"},
                         {"Authorization": "Bearer " + alice,
                          "Origin": "http://evil.example"})
    st4, body = srv.mcp(alice, "tools/call", execute("print(6 * 7)\n"))
    st5, _ = srv.mcp(other, "tools/call", execute("print(1)\n"))
    st6, jb = srv.request("POST", "/jobe/index.php/restapi/runs",
                          {"run_spec": {"language_id": "python3",
                                        "sourcecode": "print('jobe')\n"}},
                          {"X-API-KEY": alice})
    st7, _ = srv.request("POST", "/jobe/index.php/restapi/runs",
                         {"run_spec": {"language_id": "python3",
                                       "sourcecode": "print(1)\n"}},
                         {"X-API-KEY": "not-a-key"})
    # Header values that are not UTF-8 and look like JSON; a Host that
    # does not name the server.
    st8 = srv.raw(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                  b"Origin: http://\xff\xfe\"}{.example\r\n"
                  b"Authorization: Bearer %s\r\n"
                  b"Content-Type: application/json\r\n"
                  b"Content-Length: 2\r\nConnection: close\r\n\r\n{}"
                  % (srv.port, alice.encode()))
    st9 = srv.raw(b"GET /healthz HTTP/1.1\r\nHost: evil.example\r\n"
                  b"Connection: close\r\n\r\n")
    # A session of alice's, tried by the other token.
    _, sb = srv.mcp(alice, "tools/call",
                    {"name": "create_session", "arguments": {}})
    sid = None
    try:
        sid = json.loads(sb)["result"]["structuredContent"]["session_id"]
    except (ValueError, KeyError, TypeError):
        pass
    if sid:
        srv.mcp(other, "tools/call", execute("print(2)\n", session_id=sid))
        srv.mcp(alice, "tools/call", execute("print(3)\n", session_id=sid))
    _, metrics = srv.request("GET", "/metrics",
                             headers={"Authorization": "Bearer " + alice})
    rc = srv.stop()
    text = "".join(srv.err)
    recs, bad = records(text)
    point(rc == 0 and not bad, "the HTTP server's records parse (stderr)",
          bad[:3])
    point(st == 401 and st2 == 401 and st3 == 403 and st4 == 200 and
          st5 == 200 and st6 == 200 and st7 == 403,
          "the requests got their statuses",
          (st, st2, st3, st4, st5, st6, st7))
    ref = [r for r in recs if r["event"] == "refusal"]
    auth = [r for r in ref if r["layer"] == "auth" and r["door"] == "http"]
    point(len(auth) == 2 and
          all(r["client"] == "addr:127.0.0.1" and r["path"] == "/mcp"
              for r in auth) and
          {r["name"] for r in auth} == {"unknown bearer token",
                                        "no bearer token"},
          "HTTP authentication failures: refusals with the address",
          json.dumps(auth))
    org = [r for r in ref if r["layer"] == "origin"]
    point(len(org) == 2 and org[0]["name"] == "http://evil.example",
          "a refused Origin is a refusal naming it", json.dumps(org))
    point(st8 == 403 and len(org) == 2 and
          org[1]["name"] == 'http://\ufffd\ufffd"}{.example',
          "an Origin that is not UTF-8 is a refusal, its bytes replaced",
          (st8, json.dumps(org)))
    hst = [r for r in ref if r["layer"] == "host"]
    point(st9 == 403 and len(hst) == 1 and hst[0]["name"] == "evil.example"
          and hst[0]["client"] == "addr:127.0.0.1",
          "a Host that does not name the server is a refusal",
          (st9, json.dumps(hst)))
    runs = [r for r in recs if r["event"] == "run"]
    mine = [r for r in runs if r["code_sha256"] == sha("print(6 * 7)\n")]
    point(len(mine) == 1 and mine[0]["client"] == "token:alice" and
          mine[0]["door"] == "http" and mine[0]["verdict"] == "ok" and
          "code" not in mine[0],
          "a run over HTTP names its token's name (no code without "
          "--log-code)", json.dumps(mine))
    theirs = [r for r in runs if r["code_sha256"] == sha("print(1)\n")]
    point(len(theirs) == 1 and theirs[0]["client"] == unnamed,
          "an unnamed token is named by its digest's start",
          json.dumps(theirs))
    jobe = [r for r in runs if r["code_sha256"] == sha("print('jobe')\n")]
    point(len(jobe) == 1 and jobe[0]["door"] == "jobe" and
          jobe[0]["client"] == "token:alice" and
          jobe[0]["verdict"] == "ok",
          "a Jobe run: door jobe, the key's token's name", json.dumps(jobe))
    jk = [r for r in ref if r["door"] == "jobe" and r["layer"] == "auth"]
    point(len(jk) == 1 and jk[0]["name"] == "unknown X-API-KEY" and
          jk[0]["client"] == "addr:127.0.0.1",
          "a Jobe key failure is a refusal", json.dumps(jk))
    if sid:
        ss = [r for r in ref if r["layer"] == "session"]
        point(len(ss) == 1 and ss[0]["client"] == unnamed and
              ss[0]["session"] == sid,
              "another client's session handle is a refusal",
              json.dumps(ss))
        sr = [r for r in runs if r.get("session") == sid]
        point(len(sr) == 1 and sr[0]["client"] == "token:alice",
              "a session's call names its session", json.dumps(sr))
    else:
        point(False, "create_session answered", sb)
    point(alice not in text and other not in text and
          alice not in metrics and other not in metrics,
          "no token in any record, log line or /metrics")
    point('pyward_client_runs_total{client="token:alice"}' in metrics and
          re.search(r'pyward_client_refusals_total\{client="addr:127\.0\.0'
                    r'\.1",layer="auth"\} [2-9]', metrics) and
          'pyward_client_cpu_seconds_total{client="%s"}' % unnamed
          in metrics,
          "/metrics counts runs, refusals and time by client",
          metrics[-3000:])


def test_jobe_keys(tmp):
    srv = HttpServer(tmp, None, keys=["jobe-key-0123456789"])
    spec = {"run_spec": {"language_id": "python3",
                         "sourcecode": "print('keyed')\n"}}
    st, _ = srv.request("POST", "/jobe/index.php/restapi/runs", spec,
                        {"X-API-KEY": "wrong-key"})
    st2, _ = srv.request("POST", "/jobe/index.php/restapi/runs", spec,
                         {"X-API-KEY": "jobe-key-0123456789"})
    rc = srv.stop()
    recs, bad = records("".join(srv.err))
    k = [r for r in recs if r["event"] == "refusal"]
    runs = [r for r in recs if r["event"] == "run"]
    point(rc == 0 and not bad and st == 403 and st2 == 200 and
          len(k) == 1 and k[0]["layer"] == "jobe_key" and
          k[0]["door"] == "jobe" and k[0]["name"] == "unknown X-API-KEY" and
          k[0]["client"] == "addr:127.0.0.1" and
          len(runs) == 1 and runs[0]["door"] == "jobe" and
          runs[0]["code_sha256"] == sha("print('keyed')\n") and
          "jobe-key-0123456789" not in "".join(srv.err),
          "--jobe-keys: a wrong key is a jobe_key refusal, a run its record",
          (st, st2, json.dumps(recs)))


def test_guard(tmp):
    log = os.path.join(tmp, "guard.jsonl")
    srv = ServeClient(PYWARD, "basic", subprocess.DEVNULL,
                      args=("--event-log", log, "--skip-validation"))
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "events", "version": "1"}})
    _, msg = srv.call("tools/call", execute("import socket\n"), wait=60)
    srv.p.stdin.close()
    srv.p.wait(60)
    with open(log) as f:
        recs, bad = records(f.read())
    rid = run_id_of(msg)[0]
    g = [r for r in recs if r["event"] == "refusal" and r["run_id"] == rid]
    point(not bad and len(g) == 1 and g[0]["layer"] == "guard" and
          "socket" in g[0]["name"] and g[0]["error_type"] == "ImportError",
          "a guard refusal that ended the program (unvalidated server)",
          json.dumps(recs))


def test_stuck_reader(tmp):
    """A reader that does not read: the server answers every call all
    the same, and each record is written or counted as dropped."""
    r, w = os.pipe()
    p = subprocess.Popen(
        [PYWARD, "serve", "--profiles", "basic", "--event-log",
         "fd:%d" % w, "--log-code"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, pass_fds=(w,))
    os.close(w)
    srv = ServeClient.__new__(ServeClient)
    srv.p, srv.next_id, srv.buf = p, 0, b""
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "events", "version": "1"}})
    n, answered = 40, 0
    code = "# " + "a" * 200000 + "\nprint(1)\n"
    for _ in range(n):
        _, msg = srv.call("tools/call", execute(code), wait=60)
        answered += run_id_of(msg)[1] == "ok"
    p.stdin.close()
    chunks = []
    while True:  # read now: the server writes what waits, then exits
        data = os.read(r, 1 << 20)
        if not data:
            break
        chunks.append(data)
    os.close(r)
    rc = p.wait(60)
    recs, bad = records(b"".join(chunks).decode("ascii"))
    runs = [x for x in recs if x["event"] == "run"]
    dropped = sum(x["count"] for x in recs if x["event"] == "events_dropped")
    point(answered == n and rc == 0,
          "a reader that does not read holds up no call", (answered, rc))
    point(runs and all(x.get("code_truncated") is True and
                       x["code"] == code[:65536] and
                       x["code_sha256"] == sha(code) for x in runs),
          "--log-code keeps the code's first 64 KiB, the digest the whole's",
          json.dumps(runs[:1])[:300])
    point(not bad and dropped > 0 and len(runs) + dropped == n,
          "each record is written or counted in an events_dropped record",
          "%d written, %d dropped, %d runs" % (len(runs), dropped, n))


def test_stderr_share():
    """Records on a stderr pipe nobody reads take at most half of it:
    the log lines, whose writes block, keep the other half."""
    p = subprocess.Popen([PYWARD, "serve", "--profiles", "basic"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    srv = ServeClient.__new__(ServeClient)
    srv.p, srv.next_id, srv.buf = p, 0, b""
    srv.call("initialize", {"protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "clientInfo": {"name": "events", "version": "1"}})
    n, answered = 300, 0
    for i in range(n):
        _, msg = srv.call("tools/call", execute("print(%d)\n" % i), wait=60)
        answered += run_id_of(msg)[1] == "ok"
    fd = p.stderr.fileno()
    size = fcntl.fcntl(fd, 1032)  # F_GETPIPE_SZ
    queued = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD,
                                            b"\0\0\0\0"))[0]
    p.stdin.close()
    err = p.stderr.read().decode("ascii", "replace")
    rc = p.wait(60)
    recs, bad = records(err)
    runs = [x for x in recs if x["event"] == "run"]
    dropped = sum(x["count"] for x in recs if x["event"] == "events_dropped")
    point(answered == n and rc == 0 and 0 < queued <= size // 2,
          "records on a stderr pipe nobody reads fill at most half of it",
          (answered, rc, queued, size))
    point(not bad and len(runs) + dropped == n,
          "and each is written or counted as dropped",
          "%d written, %d dropped, %d runs" % (len(runs), dropped, n))


def test_judge(tmp):
    suite = os.path.join(tmp, "suite.json")
    with open(suite, "w") as f:
        json.dump({"tests": [{"stdin": "1\n", "expected_stdout": "1\n"},
                             {"stdin": "2\n", "expected_stdout": "2\n"}]},
                  f)
    log = os.path.join(tmp, "judge.jsonl")
    codes = {"good": "print(input())\n", "bad": "eval(input())\n"}
    for name, code in codes.items():
        prog = os.path.join(tmp, name + ".py")
        with open(prog, "w") as f:
            f.write(code)
        subprocess.run([PYWARD, "judge", "--event-log", log, suite, prog],
                       stdout=subprocess.DEVNULL, timeout=120)
    with open(log) as f:
        recs, bad = records(f.read())
    me = "uid:%d" % os.getuid()
    runs = [r for r in recs if r["event"] == "run"]
    ref = [r for r in recs if r["event"] == "refusal"]
    point(not bad and len(runs) == 2 and
          all(r["door"] == "judge" and r["client"] == me and
              r["request"] == suite and r["verdict"] == "ok" and
              r["code_sha256"] == sha(codes["good"]) for r in runs) and
          len(ref) == 1 and ref[0]["layer"] == "validator" and
          ref[0]["code_sha256"] == sha(codes["bad"]),
          "pyward judge --event-log: a record per test, the refused "
          "program's refusal", json.dumps(recs))


def main():
    with tempfile.TemporaryDirectory(prefix="pyward-events-") as tmp:
        test_stdio(tmp)
        test_journal(tmp)
        test_http(tmp)
        test_jobe_keys(tmp)
        test_judge(tmp)
        test_guard(tmp)
        test_stuck_reader(tmp)
        test_stderr_share()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
