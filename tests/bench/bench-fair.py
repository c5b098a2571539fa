# SPDX-License-Identifier: Apache-2.0
"""bench-fair.py - what one client's grading costs the others: the
latency of a ping and of a short execute_code (print(6*7)), idle and
while another client grades a suite (30 tests that each busy-loop 0.3 s
of CPU) without pause, measured in the same run, p50 and p99, and the
loaded figures over the idle ones.

Two doors: stdio (one connection: the suite and the short requests are
requests of the same client, taking turns in the run queue) and HTTP
(`serve --http`, the suite from one token, the short requests from
another; /healthz too).

Then the same probes while another request validates a 300 KB program
(validate_code) without pause: its check runs in a validator process,
not on the server's loop; and while another request is a grade_code of
two tests judged by a checker program of 300 KB (compiled by a
validator process), and, over HTTP, a Jobe run of a 300 KB program the
validator refuses (an import of os at its end: the check alone).

Then "Jobe PUT": /healthz and a Jobe run (print(6*7)) of one token, idle
and while another token PUTs 8 MiB files (base64 with CodeRunner's "\/"
escapes) without pause (`serve --http --jobe --max-body 16m`: a build
that takes a PUT's body whole takes it too).

Then "large replies": the same probes while another request gets an
11 MB reply (two output files of 4 MB and 100 KB of stdout, profile
filesystem) again and again: on stdio on the same connection, over HTTP
from another token.

Then "large requests": the same probes while another request of
nearly 8 MiB (a ping whose params hold small nested lists, the costliest
JSON to parse per byte) is sent again and again: on stdio on the same
connection (a probe sent after one waits for it: lines are handled in
their order), over HTTP from another token.

Then "session files": HTTP ping and /healthz, idle and while another
token read_files and write_files 6 MiB files of a session (text, then
bytes as base64) without pause (`serve --http --max-body 16m`).

Then "turns": another token's validate_code of a 1 MB program while
one token keeps 16 waiting for the validator process, and another
token's 20 KB execute_code while one token keeps four 8 MiB bodies
waiting for the parse worker: clients take turns at both.

usage: python3 bench-fair.py PYWARD [SAMPLES
                               [validate|jobe|replies|requests|files|turns]]
(validate, jobe, replies, requests, files, turns: that part alone)"""

import base64
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from bigprog import big_program  # noqa: E402 - the tests' own module

BUSY = ("import time\nt = time.process_time()\n"
        "while time.process_time() - t < 0.3:\n    pass\nprint(input())")
SUITE = {"tests": [{"name": "t%d" % i, "stdin": "%d\n" % i,
                    "expected_stdout": "%d\n" % i} for i in range(30)]}


PACE = 0.005  # seconds between two probes of the large replies' section
# A reply longer than this is kept as its raw text, not parsed (parsing
# megabytes in the client would hold the probes' own thread).
RAW_OVER = 1 << 20


def grade_params():
    return {"name": "grade_code", "arguments": {"code": BUSY,
                                                "tests": SUITE}}


BIG = big_program()


def validate_params():
    return {"name": "validate_code", "arguments": {"code": BIG}}


CHECKER_SUITE = {
    "checker_code": "import json\nd = json.loads(input())\n"
                    "print('AC' if d['output'] == d['expected'] else 'WA')\n" +
                    BIG + "\n",
    "tests": [{"name": "t%d" % i, "stdin": "%d\n" % i,
               "expected_stdout": "%d\n" % i, "checker": "program"}
              for i in range(2)]}


def checker_params():
    return {"name": "grade_code", "arguments": {"code": "print(input())",
                                                "tests": CHECKER_SUITE}}


JOBE_REFUSED = {"run_spec": {"language_id": "python3",
                             "sourcecode": BIG + "\nimport os\n"}}


BIG_REPLY = '''
b = bytes((i*7919) % 251 for i in range(65536))*63
for i in range(2):
    open("output/f%d.bin" % i, "wb").write(b)
print("x"*100000)
'''


def big_reply_params():
    return {"name": "execute_code", "arguments": {"code": BIG_REPLY,
                                                  "profile": "filesystem"}}


def short_params():
    return {"name": "execute_code", "arguments": {"code": "print(6*7)"}}


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


class Stdio:
    """`pyward serve` over stdio; replies matched to their ids by a
    reader thread, so requests may overlap."""

    def __init__(self, pyward, args=()):
        self.p = subprocess.Popen([pyward, "serve", *args],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.lock = threading.Lock()
        self.waiting = {}
        self.n = 0
        threading.Thread(target=self.reader, daemon=True).start()
        self.call("initialize", {"protocolVersion": "2025-06-18",
                                 "capabilities": {},
                                 "clientInfo": {"name": "bench",
                                                "version": "0"}})
        self.send({"jsonrpc": "2.0",
                   "method": "notifications/initialized"})

    def reader(self):
        """Replies by id (a large reply is not parsed here: its id is
        the first member, rpc.c)."""
        for line in self.p.stdout:
            m = re.match(rb'{"jsonrpc":"2.0","id":(\d+),', line)
            msg = line if len(line) > RAW_OVER else json.loads(line)
            rid = int(m.group(1)) if m else (
                msg.get("id") if isinstance(msg, dict) else None)
            with self.lock:
                slot = self.waiting.pop(rid, None)
            if slot is not None:
                slot[1] = msg
                slot[0].set()

    def send(self, msg):
        with self.lock:
            self.p.stdin.write((json.dumps(msg) + "\n").encode())
            self.p.stdin.flush()

    def call(self, method, params=None):
        with self.lock:
            self.n += 1
            rid = self.n
            slot = [threading.Event(), None]
            self.waiting[rid] = slot
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        slot[0].wait(600)
        return slot[1]

    def close(self):
        self.p.stdin.close()
        self.p.wait(30)


class Http:
    """`pyward serve --http` with two tokens."""

    def __init__(self, pyward, args=()):
        self.dir = tempfile.mkdtemp(prefix="pyward-bench-fair.")
        tokens = os.path.join(self.dir, "tokens")
        self.tokens = ["bench-a-%d" % os.getpid(), "bench-b-%d" % os.getpid()]
        with open(tokens, "w") as f:
            f.write("\n".join(self.tokens) + "\n")
        self.p = subprocess.Popen(
            [pyward, "serve", "--http", "127.0.0.1:0",
             "--auth-token-file", tokens, *args], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.port = None
        for line in self.p.stderr:
            m = re.search(r"serving MCP on https?://[^ ]+:(\d+)/mcp", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            sys.exit("no port")
        threading.Thread(target=lambda: [None for _ in self.p.stderr],
                         daemon=True).start()
        while self.get("/readyz")[0] != 200:
            time.sleep(0.05)

    def get(self, path):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def call(self, token, method, params=None):
        body = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            body["params"] = params
        return self.post(token, json.dumps(body))

    def post(self, token, body):
        """The answer to BODY (a request's JSON text, made beforehand:
        dumping megabytes here would hold the probes' thread)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            c.request("POST", "/mcp", body=body, headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "Authorization": "Bearer " + self.tokens[token]})
            r = c.getresponse()
            body = r.read()
            return body if len(body) > RAW_OVER else json.loads(body)
        finally:
            c.close()

    def jobe(self, token, method, route, body):
        """A Jobe request with TOKEN's key: (status, decoded body)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            c.request(method, "/jobe/index.php/restapi" + route, body=body,
                      headers={"Content-Type": "application/json",
                               "X-API-KEY": self.tokens[token]})
            r = c.getresponse()
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
        finally:
            c.close()

    def close(self):
        self.p.terminate()
        self.p.wait(60)


def sample(fn, n, pace=0.0):
    """N latencies of FN, one every PACE seconds at the most."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
        left = pace - (time.perf_counter() - t0)
        if left > 0:
            time.sleep(left)
    return out


def measure(probes, grade, n, pace=0.0):
    """Each probe N times idle, then N times while GRADE runs without
    pause in a thread of its own (one every PACE seconds: spread over
    the load); rows of (name, idle, loaded)."""
    idle = {name: sample(fn, n, pace) for name, fn in probes}
    stop = threading.Event()
    graded = []

    def grader():
        while not stop.is_set():
            r = grade()
            graded.append(r)

    t = threading.Thread(target=grader, daemon=True)
    t.start()
    time.sleep(1.0)  # the suite's runs fill the slots
    loaded = {name: sample(fn, n, pace) for name, fn in probes}
    stop.set()
    t.join(600)
    return [(name, idle[name], loaded[name]) for name, _ in probes], graded


def report(door, rows, show_max=False):
    print("%s:" % door)
    print("  %-22s %9s %9s %9s %9s %8s %8s" % (
        "", "idle p50", "idle p99", "busy p50", "busy p99", "p50 x",
        "p99 x"))
    for name, idle, loaded in rows:
        i50, i99 = pct(idle, 50) * 1e3, pct(idle, 99) * 1e3
        b50, b99 = pct(loaded, 50) * 1e3, pct(loaded, 99) * 1e3
        print("  %-22s %7.2fms %7.2fms %7.2fms %7.2fms %7.1fx %7.1fx" % (
            name, i50, i99, b50, b99, b50 / i50, b99 / i99))
        if show_max:
            print("  %-22s max idle %.2f ms, max busy %.2f ms" % (
                "", max(idle) * 1e3, max(loaded) * 1e3))


def graded_ok(results):
    return all(
        (r or {}).get("result", {}).get("structuredContent", {})
        .get("verdict") == "AC" for r in results)


def validated_ok(results):
    return all(
        (r or {}).get("result", {}).get("structuredContent", {})
        .get("validation", {}).get("valid") is True for r in results)


def jobe_refused_ok(results):
    return all((r or {}).get("outcome") == 11 for r in results)


def during(pyward, n, what, stdio_call, http_call, ok, args=()):
    """The probes idle and while WHAT is sent again and again: by
    STDIO_CALL(stdio) on the same stdio connection (None: not over
    stdio) and by HTTP_CALL(http) from another HTTP token (serve ARGS);
    OK(results) says the results are as they must be."""
    print("# while %s is sent without pause beside them" % what)
    if stdio_call is not None:
        s = Stdio(pyward)
        s.call("tools/call", short_params())  # warm
        rows, got = measure(
            [("ping", lambda: s.call("ping")),
             ("execute_code print", lambda: s.call("tools/call",
                                                   short_params()))],
            lambda: stdio_call(s), n)
        s.close()
        report("stdio (on the same connection)", rows)
        if not got or not ok(got):
            sys.exit("%s: not the answer it must be" % what)
    h = Http(pyward, args)
    h.call(1, "tools/call", short_params())  # warm
    rows, got = measure(
        [("ping", lambda: h.call(1, "ping")),
         ("/healthz", lambda: h.get("/healthz")),
         ("execute_code print", lambda: h.call(1, "tools/call",
                                               short_params()))],
        lambda: http_call(h), n)
    h.close()
    report("http (from another token)", rows)
    if not got or not ok(got):
        sys.exit("%s: not the answer it must be" % what)
    print("# %d of them during the http probes" % len(got))


def during_validation(pyward, n):
    """The probes while a long program is checked: validate_code, a
    grade_code's checker program, a Jobe run."""
    during(pyward, n, "a validate_code of a %d-byte program" % len(BIG),
           lambda s: s.call("tools/call", validate_params()),
           lambda h: h.call(0, "tools/call", validate_params()),
           validated_ok)
    during(pyward, n, "a grade_code of 2 tests with a %d-byte checker "
           "program" % len(CHECKER_SUITE["checker_code"]),
           lambda s: s.call("tools/call", checker_params()),
           lambda h: h.call(0, "tools/call", checker_params()), graded_ok)
    during(pyward, n, "a Jobe run of a %d-byte program the validator "
           "refuses" % len(JOBE_REFUSED["run_spec"]["sourcecode"]), None,
           lambda h: h.jobe(0, "POST", "/runs", json.dumps(JOBE_REFUSED))[1],
           jobe_refused_ok, ("--jobe",))


def during_jobe_puts(pyward, n):
    """/healthz and a Jobe run idle and while another token PUTs 8 MiB
    files without pause."""
    data = os.urandom(8 << 20)
    b64 = base64.b64encode(data).decode().replace("/", "\\/")
    body = ('{"file_contents": "%s"}' % b64).encode()
    print("# Jobe PUT: while another token PUTs 8 MiB files (%d-byte bodies) "
          "without pause beside them" % len(body))
    h = Http(pyward, ("--jobe", "--max-body", "16m"))
    run = json.dumps({"run_spec": {"language_id": "python3",
                                   "sourcecode": "print(6 * 7)\n"}})
    puts = []

    def jobe_run():
        st, res = h.jobe(1, "POST", "/runs", run)
        if st != 200 or res.get("stdout") != "42\n":
            sys.exit("a Jobe run failed: %s %s" % (st, res))

    def put():
        puts.append(h.jobe(0, "PUT", "/files/benchput%04d" % (len(puts) % 8),
                           body)[0])

    jobe_run()  # warm
    rows, _ = measure([("/healthz", lambda: h.get("/healthz")),
                       ("jobe run print", jobe_run)], put, n)
    h.close()
    report("http (the PUTs from another token)", rows)
    if not puts or set(puts) != {204}:
        sys.exit("a PUT was not stored: %s" % sorted(set(puts)))
    print("# %d PUTs of 8 MiB during the probes" % len(puts))


def replied_ok(results):
    """Each a large reply (its raw text) listing the two files."""
    return all(isinstance(r, bytes) and len(r) > 11000000 and
               r.count(b'"size":4128768') == 2 for r in results)


def large_replies(pyward, n):
    """The probes idle and while 11 MB replies are received without
    pause, on the same stdio connection and from another HTTP token; a
    probe every 5 ms, so that they spread over several replies."""
    print("# while an execute_code with an 11 MB reply (two 4 MB output "
          "files, 100 KB of stdout) is sent without pause beside them; a "
          "probe every 5 ms")
    args = ("--profiles", "basic,filesystem")
    s = Stdio(pyward, args)
    s.call("tools/call", big_reply_params())  # warm
    rows, got = measure(
        [("ping", lambda: s.call("ping"))],
        lambda: s.call("tools/call", big_reply_params()), n, PACE)
    s.close()
    report("stdio (the large replies on the same connection)", rows, True)
    if not got or not replied_ok(got):
        sys.exit("a large reply did not list its two files")
    print("# %d large replies during the stdio probes" % len(got))
    h = Http(pyward, args)
    h.call(0, "tools/call", big_reply_params())  # warm
    rows, got = measure(
        [("ping", lambda: h.call(1, "ping")),
         ("/healthz", lambda: h.get("/healthz"))],
        lambda: h.call(0, "tools/call", big_reply_params()), n, PACE)
    h.close()
    report("http (the large replies to another token)", rows, True)
    if not got or not replied_ok(got):
        sys.exit("a large reply did not list its two files")
    print("# %d large replies during the http probes" % len(got))


# A ping of nearly 8 MiB (--max-body's default is 8 MiB): small nested
# lists, about 380 ms of jansson's parse here.  Its text is made once:
# encoding it in the client would hold the probes' threads.
BIG_PING_PARAMS = json.dumps(
    {"pad": [[0, [1]]] * (((8 << 20) - 4096) // 10)}).encode()


def big_ping_body(rid):
    return b"".join([b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":'
                     % rid, BIG_PING_PARAMS, b"}"])


def stdio_big_ping(s):
    with s.lock:
        s.n += 1
        rid = s.n
        slot = [threading.Event(), None]
        s.waiting[rid] = slot
        s.p.stdin.write(big_ping_body(rid) + b"\n")
        s.p.stdin.flush()
    slot[0].wait(600)
    return slot[1]


def http_big_ping(h):
    c = http.client.HTTPConnection("127.0.0.1", h.port, timeout=600)
    try:
        c.request("POST", "/mcp", body=big_ping_body(1), headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer " + h.tokens[0]})
        return json.loads(c.getresponse().read())
    finally:
        c.close()


def pinged_ok(results):
    return all(isinstance(r, dict) and r.get("result") == {}
               for r in results)


def large_requests(pyward, n):
    """The probes idle and while 8 MiB requests are sent without pause,
    on the same stdio connection and from another HTTP token."""
    size = len(big_ping_body(1))
    print("# large requests: while a %d-byte ping (small nested lists) is "
          "sent without pause beside them" % size)
    s = Stdio(pyward)
    rows, got = measure([("ping", lambda: s.call("ping"))],
                        lambda: stdio_big_ping(s), n)
    s.close()
    report("stdio (the large requests on the same connection)", rows, True)
    if not got or not pinged_ok(got):
        sys.exit("a large ping was not answered")
    print("# %d large requests during the stdio probes" % len(got))
    h = Http(pyward)
    rows, got = measure(
        [("ping", lambda: h.call(1, "ping")),
         ("/healthz", lambda: h.get("/healthz"))],
        lambda: http_big_ping(h), n)
    h.close()
    report("http (the large requests from another token)", rows, True)
    if not got or not pinged_ok(got):
        sys.exit("a large ping was not answered")
    print("# %d large requests during the http probes" % len(got))


def session_files(pyward, n):
    """HTTP ping and /healthz idle and while another token writes and
    reads 6 MiB files of its session without pause; a probe every 5 ms."""
    print("# session files: while another token read_files and "
          "write_files 6 MiB files (text, then bytes) without pause beside "
          "them; a probe every 5 ms")
    h = Http(pyward, ("--profiles", "basic,filesystem", "--max-body", "16m"))
    r = h.call(0, "tools/call", {"name": "create_session",
                                 "arguments": {"profile": "filesystem"}})
    sid = r["result"]["structuredContent"]["session_id"]
    text = ("%s\n" % ("x" * 63)) * (6 * 1024 * 1024 // 64)
    raw = bytes((i * 7919) % 251 for i in range(65536)) * 96
    b64 = base64.b64encode(raw).decode()
    done = []

    def body(name, **args):
        return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": name, "arguments": {
                               "session_id": sid, **args}}}).encode()
    calls = [body("write_file", path="t.txt", content=text),
             body("read_file", path="t.txt"),
             body("write_file", path="b.bin", content_base64=b64),
             body("read_file", path="b.bin")]

    def tool(i):
        r = h.post(0, calls[i])
        if not isinstance(r, bytes) and r["result"].get("isError"):
            sys.exit("%d: %s" % (i, r["result"]["content"][0]["text"]))
        return r

    def files():
        got = got2 = b"x" * (12 << 20)  # not read: taken as answered
        if only != "read":
            tool(0)
        if only != "write":
            got = tool(1)
        if only != "read":
            tool(2)
        if only != "write":
            got2 = tool(3)
        done.append(isinstance(got, bytes) and len(got) > len(text) and
                    isinstance(got2, bytes) and len(got2) > len(b64))

    only = None
    files()  # warm: the files made
    only = os.environ.get("BENCH_FILES")  # read, write: those alone
    rows, _ = measure([("ping", lambda: h.call(1, "ping")),
                       ("/healthz", lambda: h.get("/healthz"))], files, n,
                      PACE)
    h.close()
    report("http (the files of another token)", rows, True)
    if not done or not all(done):
        sys.exit("a read_file did not answer the file")
    print("# %d rounds (4 calls, 24 MiB each) during the probes" % len(done))


def measure_many(probes, load, k, n):
    """Each probe N times idle, then N times while K threads each send
    LOAD() again and again (K of its requests waiting at once); rows of
    (name, idle, loaded), and how many LOADs were answered."""
    idle = {name: sample(fn, n, 0.0) for name, fn in probes}
    stop = threading.Event()
    loads = []

    def loader():
        while not stop.is_set():
            loads.append(load())

    threads = [threading.Thread(target=loader, daemon=True)
               for _ in range(k)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # the loads queued
    loaded = {name: sample(fn, n, 0.0) for name, fn in probes}
    stop.set()
    for t in threads:
        t.join(600)
    return [(name, idle[name], loaded[name]) for name, _ in probes], loads


def turns(pyward, n):
    """Clients take turns at the validator processes and at the parse
    worker: another token's validate_code of a 1 MB program, idle and
    while one token keeps 16 of them waiting; another token's 20 KB
    execute_code (parsed by the worker), idle and while one token keeps
    four 8 MiB bodies waiting.  In order of arrival the probe waited for
    all of them; by turns, for the one under way."""
    n = min(n, 10)
    print("# turns: %d samples each" % n)
    h = Http(pyward, ("--max-body", "16m",
                      "--max-connections-per-address", "64"))
    mb = big_program(1000000)
    check = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                        "params": {"name": "validate_code",
                                   "arguments": {"code": mb}}})
    h.post(1, check)  # warm
    rows, loads = measure_many(
        [("validate_code 1 MB", lambda: h.post(1, check))],
        lambda: h.post(0, check), 16, n)
    report("http (16 checks of 1 MB from another token waiting)", rows)
    if not validated_ok(loads):
        sys.exit("a check did not find the program valid")
    small = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": {"name": "execute_code", "arguments": {
                            "code": "print(6*7)\n#" + "x" * 20000}}})
    rows, loads = measure_many(
        [("execute_code 20 KB", lambda: h.post(1, small))],
        lambda: http_big_ping(h), 4, n)
    report("http (four 8 MiB bodies from another token waiting)", rows)
    h.close()
    if not loads or not pinged_ok(loads):
        sys.exit("a large ping was not answered")
    print("# %d large bodies answered during the probes" % len(loads))


def main():
    pyward = sys.argv[1] if len(sys.argv) > 1 else "./pyward"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    if len(sys.argv) > 3 and sys.argv[3] == "validate":
        during_validation(pyward, n)
        return 0
    if len(sys.argv) > 3 and sys.argv[3] == "jobe":
        during_jobe_puts(pyward, n)
        return 0
    if len(sys.argv) > 3 and sys.argv[3] == "replies":
        large_replies(pyward, n)
        return 0
    if len(sys.argv) > 3 and sys.argv[3] == "files":
        session_files(pyward, n)
        return 0
    if len(sys.argv) > 3 and sys.argv[3] == "requests":
        large_requests(pyward, n)
        return 0
    if len(sys.argv) > 3 and sys.argv[3] == "turns":
        turns(pyward, n)
        return 0
    print("# %d samples each; a suite of 30 tests of 0.3 s of CPU graded "
          "without pause beside them; %d CPUs" % (n, os.cpu_count()))

    s = Stdio(pyward)
    s.call("tools/call", short_params())  # warm
    rows, graded = measure(
        [("ping", lambda: s.call("ping")),
         ("execute_code print", lambda: s.call("tools/call",
                                               short_params()))],
        lambda: s.call("tools/call", grade_params()), n)
    s.close()
    report("stdio (the suite on the same connection)", rows)
    if not graded_ok(graded):
        sys.exit("a suite was not graded AC")

    h = Http(pyward)
    h.call(1, "tools/call", short_params())  # warm
    rows, graded = measure(
        [("ping", lambda: h.call(1, "ping")),
         ("/healthz", lambda: h.get("/healthz")),
         ("execute_code print", lambda: h.call(1, "tools/call",
                                               short_params()))],
        lambda: h.call(0, "tools/call", grade_params()), n)
    h.close()
    report("http (the suite from another token)", rows)
    if not graded_ok(graded):
        sys.exit("a suite was not graded AC")
    during_validation(pyward, n)
    during_jobe_puts(pyward, n)
    large_replies(pyward, n)
    large_requests(pyward, n)
    session_files(pyward, n)
    turns(pyward, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
