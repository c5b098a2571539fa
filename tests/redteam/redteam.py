# SPDX-License-Identifier: Apache-2.0
# redteam.py - the red-team suite: every attack under tests/redteam/*/ and
# every program that must run (tests/programs/), but those of a folder
# with a driver of its own (a .sh file: tests/redteam/validator/,
# tests/programs/beginner/, ...), runs three times, through one `pyward
# serve` (with validation), as the call of a session of that
# server, and unvalidated through a second server started with
# `--skip-validation` (one for the whole pass: every run is a fresh spare
# all the same), and each run is checked by what actually happened, never
# by a message.  An attack that needs a process of its own for the
# unvalidated pass says why in a "# fresh:" header (and one with "#
# max-output:", whose cap is the run's own): it runs as `pyward run
# --skip-validation --json`.  The checks:
#   - the planted secret file and secret environment variable (and their
#     hex, base64 and reversed forms) appear in no output, nor the leak
#     marker (@LEAK@) an attack prints when it sees a fact of the host
#     (@HOSTNAME@, @PYWARD_EXE@) that the sandbox hides;
#   - no file appears outside the run's workspace (the test's tree and every
#     path carrying the suite's token under /tmp, /var/tmp, /dev/shm, the
#     home and current directories), and the secret file is unchanged;
#   - the TCP listener on 127.0.0.1 accepts no connection (or, with
#     "# connects: yes", at least one);
#   - no process started by the attack outlives its call (this driver is a
#     child subreaper: orphans come back to it and are seen);
#   - the test's own victim process is still alive;
#   - the server answers the next request, and its memory does not grow
#     beyond a bound over the suite; after the unvalidated pass a normal
#     program still runs;
#   - a third pass runs it as a call of a session (create_session with its
#     profiles, memory and timeout; execute_code with the session_id), with
#     the same checks; then the session answers a next call or says it
#     ended, close_session removes it (no process left), and a new session
#     is clean (a global the attack set is not there); an attack under
#     basic alone runs in a copy (fork_session) of a session holding a
#     marker, and that session afterwards still answers with its marker
#     and nothing the attack did;
#   - a "# run-layer:" header (regressions) names the layer that must stop
#     the attack in the unvalidated pass;
#   - a "# verdict:" header lists the statuses the server may report (the
#     run's real outcome, whatever the program says of itself), "#
#     exit-code:" the exit status it must report, and "# never:" a string
#     that must not appear in the answer (both passes);
#   - unless the validator rejected it, what the run reports: "# stdout:"
#     its exact standard output, "# result:" the repr of its final
#     expression, "# variables: NAME=REPR", "# error-line:" the line of its
#     error (with a traceback trimmed of the sandbox's frames), "#
#     blocked:" the blocking layer's kind (audit, syscall) and "#
#     blocked-name:" what it blocked, "# files: NAME=MIME|refused ..." the
#     output files sent (their bytes as long as the size says) or refused,
#     "# files-count:" how many are listed.
# A file's header is its leading "# key: value" lines: "# category:" (an
# attack; the name of its folder) and "# attack:" what it tries, or "#
# program:" what a program that must run does (tests/programs/, category
# "programs"); "# profile:" the profiles, space-separated (basic);
# "# timeout:" seconds (5), "# memory:" a size, "# max-output:" bytes (the
# unvalidated pass only: the server's cap is its own), "# stdin:" one line
# of standard input; then the expectations above.
# The layer that stopped each attack is read from the result's structured
# fields (status, blocked kind, error type) and printed as a table.
#
# usage: redteam.py [--table] [--only NAME]... [--transport stdio|http]
#                   [--serve-only] [--packages NAME] DIR...
#   --transport http: the server pass goes through `pyward serve --http`
#   (each call a POST to /mcp); --serve-only: no unvalidated pass;
#   --packages NAME: both servers attach the package set NAME (stdio;
#   the attacks of a set's packages, tests/redteam/packages/run.sh).
#   TAP on stdout (one point per attack per pass, then the suite-wide
#   checks), the table as TAP comments; --table prints the table as plain
#   text instead (the long form, `make redteam`).
import argparse
import base64
import ctypes
import hashlib
import json
import re
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import (HttpServeClient, ServeClient,  # noqa: E402
                          descendants, proc_table)

CATEGORIES = ("builtins", "frames", "format", "imports", "filesystem",
              "processes", "network", "resources", "disclosure", "syscalls")
PROFILES = "basic,filesystem,data_science,network,jobe"
RSS_BOUND_KB = 5 * 1024
SETTLE_S = 3.0
PR_SET_CHILD_SUBREAPER = 36


class Tap:
    def __init__(self, out):
        self.n = 0
        self.failed = 0
        self.out = out

    def point(self, name, why):
        self.n += 1
        if why:
            self.failed += 1
            print(f"not ok {self.n} - {name}", file=self.out)
            for line in "\n".join(why).splitlines():
                print(f"# {line[:400]}", file=self.out)
        else:
            print(f"ok {self.n} - {name}", file=self.out)
        self.out.flush()


def parse_attack(path):
    """The "# key: value" header of an attack file."""
    head = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("# ") or ":" not in line:
                break
            k, _, v = line[2:].partition(":")
            head.setdefault(k.strip(), v.strip())
    head["profiles"] = head.get("profile", "basic").split()
    return head


def collect(dirs, only):
    """(attacks, bad): (category, name, path, header) of every file, and
    the files whose header says neither what they are nor where they go,
    or whose name another file already has."""
    attacks, bad, seen = [], [], set()
    for d in dirs:
        for root, subdirs, files in os.walk(d):
            # A folder with a driver of its own (a .sh file) is that
            # driver's.
            subdirs[:] = [s for s in subdirs if not any(
                f.endswith(".sh") for f in os.listdir(os.path.join(root, s)))]
            for fn in sorted(files):
                if not fn.endswith(".py"):
                    continue
                name = fn[:-3]
                if only and name not in only:
                    continue
                path = os.path.join(root, fn)
                head = parse_attack(path)
                if root == d and not {"attack", "program"} & set(head):
                    continue  # this driver, next to the categories
                cat = head.get("category")
                if "program" in head and cat is None:
                    cat = "programs"
                if cat != os.path.basename(root) or \
                        ("attack" in head) == ("program" in head):
                    bad.append(path)
                    continue
                if name in seen:  # one name, one file: --only NAME
                    bad.append(path)
                    continue
                seen.add(name)
                attacks.append((cat, name, path, head))
    attacks.sort(key=lambda a: (a[0], a[1]))
    return attacks, bad


WARM_UP = ("print(1)", "1 / 0", "while True:\n    print('x' * 65536)",
           "import sys\nwhile True:\n    sys.stderr.write('e' * 65536)",
           "print(1)")


class Listener(threading.Thread):
    """A TCP listener on 127.0.0.1 that counts the connections it gets."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.count = 0

    def run(self):
        while True:
            c, _ = self.sock.accept()
            self.count += 1
            c.close()


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def proc_status(pid, key):
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def steady(count, still=1.0, limit=30.0):
    """COUNT() once it has not changed for STILL seconds (or at LIMIT)."""
    deadline = time.monotonic() + limit
    last, since = count(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = count()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            break
    return last


class ServerChecks:
    """What the suite asks of the server every attack goes through."""

    def start(self):
        _, msg = self.call("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "redteam", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return msg is not None and "result" in msg

    def alive(self):
        _, msg = self.call("ping", {}, wait=10.0)
        return msg is not None and "result" in msg

    def rss_kb(self):
        return proc_status(self.p.pid, "VmRSS")


class Server(ServerChecks, ServeClient):
    """The server on stdio, with every profile (and ARGS)."""

    def __init__(self, pyward, log, args=()):
        ServeClient.__init__(self, pyward, PROFILES, log, args)

    def close(self):
        self.p.stdin.close()


class HttpServer(ServerChecks, HttpServeClient):
    """The server over HTTP (--transport http), with every profile."""

    def __init__(self, pyward, log):
        HttpServeClient.__init__(self, pyward, PROFILES, log)


def execute_args(head, code):
    args = {"code": code, "profile": head["profiles"],
            "timeout": float(head.get("timeout", "5"))}
    if "memory" in head:
        args["memory_limit"] = head["memory"]
    if "stdin" in head:
        args["stdin"] = head["stdin"] + "\n"
    return args


def report_shape(res):
    """RES, execute_code's structured result (which `pyward run --json`
    prints too), with the program's report in its own shape again
    (doc/MCP.md lists the moves), so every pass is checked alike."""
    if not isinstance(res, dict):
        return res
    return dict(res, result=res.get("result_repr"),
                variables=res.get("variable_details"),
                error=res.get("error_details"))


def serve_files(msg):
    """The structured result of a serve answer, each sent file's bytes put
    back in its entry from the content items they were moved to."""
    res = msg["result"].get("structuredContent")
    if not isinstance(res, dict):
        return res
    res = report_shape(res)
    items = [c for c in msg["result"].get("content") or []
             if c.get("type") in ("image", "resource")]
    sent = [f for f in res.get("files") or [] if f.get("sent")]
    for f, c in zip(sent, items):
        f["data"] = c.get("data") or (c.get("resource") or {}).get("blob")
    return res


def classify(res):
    """The layer that stopped a run, from its structured result."""
    if not isinstance(res, dict):
        return "no result"
    status = res.get("status")
    blocked = res.get("blocked") or {}
    err = res.get("error") or {}
    etype, msg = err.get("type") or "", err.get("message") or ""
    if status == "rejected":
        return "validator"
    if blocked.get("kind") == "syscall":
        return "seccomp"
    if blocked.get("kind") == "audit":
        return "audit hook"
    if status == "timeout":
        return "timeout"
    if status == "memory_limit":
        return "rlimit"
    if status == "output_limit":
        return "output cap"
    if status == "killed":
        return "rlimit" if res.get("signal") in (24, 25) else "killed"
    if status == "ok":
        return "no effect"
    return classify_error(etype, msg)


GUARD_TYPES = ("AttributeError", "NameError", "SyntaxError", "TypeError",
               "ValueError")
NAMESPACE_TYPES = ("FileNotFoundError", "ProcessLookupError",
                   "ConnectionRefusedError", "gaierror", "URLError")
RLIMIT_TYPES = ("MemoryError", "RecursionError", "BlockingIOError")


def classify_error(etype, msg):
    if etype in ("ImportError", "ModuleNotFoundError"):
        return "guard"
    if etype in GUARD_TYPES and ("sandbox" in msg or "not allowed" in msg
                                 or "not defined" in msg
                                 or "forbidden" in msg
                                 or "not an identifier" in msg):
        return "guard"
    if etype in ("PermissionError",) and "blocked by the sandbox" in msg:
        return "audit hook"
    if etype in NAMESPACE_TYPES or "unreachable" in msg.lower() or \
            "No such file" in msg or "Name or service" in msg:
        return "namespace"
    if etype in ("PermissionError", "OSError") and (
            "Permission denied" in msg or "Read-only" in msg or
            "not permitted" in msg):
        return "namespace"
    if etype in RLIMIT_TYPES or "Too many open files" in msg or \
            "malloc failure" in msg or \
            "Resource temporarily unavailable" in msg:
        return "rlimit"
    return f"program error ({etype})"


def verdict_why(head, res, raw=""):
    """What the result says that the run did not do: a list of reasons."""
    why = []
    if not isinstance(res, dict):
        return why
    allowed = head.get("verdict", "").split()
    if allowed and res.get("status") not in allowed:
        why.append(f"status {res.get('status')}, not one of {allowed}")
    never = head.get("never")
    if never and (never in json.dumps(res) or never in raw):
        why.append(f"{never!r} appears in the result")
    if res.get("status") != "rejected":
        why += report_why(head, res)
    return why


def report_why(head, res):
    """What a run that was not rejected reports against its header."""
    why = []
    code = head.get("exit-code")
    if code is not None and str(res.get("exit_code")) != code:
        why.append(f"exit code {res.get('exit_code')}, not {code}")
    if "stdout" in head and res.get("stdout") != head["stdout"] + "\n":
        why.append(f"stdout {res.get('stdout')!r}, not {head['stdout']!r}")
    if "result" in head and res.get("result") != head["result"]:
        why.append(f"result {res.get('result')!r}, not {head['result']!r}")
    err = res.get("error") or {}
    if "error-line" in head:
        if str(err.get("line")) != head["error-line"]:
            why.append(f"error line {err.get('line')}, "
                       f"not {head['error-line']}")
        tb = err.get("traceback") or ""
        # python3's traceback of the program's own frames only: no frame
        # of the sandbox or of a library.
        files = re.findall(r'File "([^"]*)"', tb)
        if "guard" in tb or any(f != "<user>" for f in files):
            why.append(f"traceback not trimmed: {tb!r:.300}")
    if "variables" in head:
        name, _, value = head["variables"].partition("=")
        got = (res.get("variables") or {}).get(name, {}).get("repr")
        if got != value:
            why.append(f"variable {name} = {got!r}, not {value!r}")
    blocked = res.get("blocked") or {}
    if "blocked" in head and blocked.get("kind") != head["blocked"]:
        why.append(f"blocked {blocked!r}, not by {head['blocked']}")
    if "blocked-name" in head and blocked.get("name") != head["blocked-name"]:
        why.append(f"blocked name {blocked.get('name')!r}, "
                   f"not {head['blocked-name']!r}")
    files = {f.get("name"): f for f in res.get("files") or []}
    for item in head.get("files", "").split():
        name, _, want = item.partition("=")
        f = files.get(name)
        if f is None:
            why.append(f"file {name} not listed")
        elif want == "refused":
            if f.get("sent") or f.get("data") or not f.get("reason"):
                why.append(f"file {name} sent: {f.get('sent')}")
        elif not f.get("sent") or f.get("mime_type") != want or \
                len(base64.b64decode(f.get("data") or "")) != f.get("size"):
            why.append(f"file {name}: {f.get('mime_type')}, "
                       f"sent {f.get('sent')}, size {f.get('size')}")
    if "files-count" in head and len(files) != int(head["files-count"]):
        why.append(f"{len(files)} files listed, not {head['files-count']}")
    return why


def summary(raw):
    """One line about a run's result, for the log."""
    try:
        res = json.loads(raw.strip().splitlines()[0])
    except (ValueError, IndexError, AttributeError):
        return f"unparsed: {raw!r:.200}"
    if "jsonrpc" in res:
        res = (res.get("result") or {}).get("structuredContent") or res
    err = res.get("error_details") or res.get("error") or {}
    if not isinstance(err, dict):
        err = {"message": err}
    return (f"status={res.get('status')} blocked={res.get('blocked')} "
            f"{err.get('type')}: {str(err.get('message'))[:150]}")


class Suite:
    def __init__(self, opts):
        self.opts = opts
        self.pyward = os.environ.get("PYWARD", "pyward")
        self.exe = os.path.realpath(shutil.which(self.pyward) or self.pyward)
        self.tap = Tap(sys.stderr if opts.table else sys.stdout)
        self.rows = []
        self.work = os.path.realpath(opts.work)
        self.token = f"pwrt{os.getpid()}x{os.urandom(3).hex()}"
        self.secret = f"pyward-redteam-file-{os.urandom(8).hex()}"
        self.env_secret = f"pyward-redteam-env-{os.urandom(8).hex()}"
        self.leak = f"pyward-redteam-leak-{os.urandom(8).hex()}"
        os.environ["PYWARD_REDTEAM_SECRET"] = self.env_secret
        # The `pyward run` processes of the unvalidated pass: in a
        # sanitized build, without LeakSanitizer's exit scan (half of each
        # process's time).  The server, which sees every attack's result
        # through the same sandbox code, keeps it for its whole life, and
        # the CLI's own paths are leak-checked by the other suites.
        self.run_env = dict(os.environ)
        if os.environ.get("PW_SANITIZED") == "1":
            self.run_env["ASAN_OPTIONS"] = (
                os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
        self.plant()

    def plant(self):
        self.secret_dir = os.path.join(self.work, "secret")
        self.outside = os.path.join(self.work, "outside")
        os.makedirs(self.secret_dir)
        os.makedirs(self.outside)
        os.chmod(self.work, 0o755)
        os.chmod(self.secret_dir, 0o755)
        os.chmod(self.outside, 0o777)
        self.secret_file = os.path.join(self.secret_dir, "secret.txt")
        with open(self.secret_file, "w", encoding="utf-8") as f:
            f.write(self.secret + "\n")
        os.chmod(self.secret_file, 0o644)
        self.secret_hash = self.file_hash()

    def file_hash(self):
        with open(self.secret_file, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    def forms(self):
        out = []
        for s in (self.secret, self.env_secret, self.leak):
            b = s.encode()
            out += [s, s[::-1], b.hex(), base64.b64encode(b).decode(),
                    base64.b64encode(b + b"\n").decode(), s.split("-")[-1]]
        return out

    def watched(self):
        """Names under the test's tree and every path with the token."""
        names = set()
        for root, dirs, files in os.walk(self.work):
            for n in dirs + files:
                names.add(os.path.join(root, n))
        for d in ("/tmp", "/var/tmp", "/dev/shm", os.getcwd(),
                  os.path.expanduser("~"), self.opts.srcdir):
            try:
                for n in os.listdir(d):
                    if self.token in n:
                        names.add(os.path.join(d, n))
            except OSError:
                pass
        return names

    def substitute(self, path, name):
        with open(path, encoding="utf-8") as f:
            code = f.read()
        subs = {"@SECRET_FILE@": self.secret_file,
                "@SECRET_DIR@": self.secret_dir,
                "@OUTSIDE@": os.path.join(self.outside, name),
                "@OUTSIDE_DIR@": self.outside,
                "@TOKEN@": self.token,
                "@PORT@": str(self.listener.port),
                "@TESTPID@": str(self.victim.pid),
                "@ENV_NAME@": "PYWARD_REDTEAM_SECRET",
                "@LEAK@": self.leak,
                "@HOSTNAME@": socket.gethostname(),
                "@PYWARD_EXE@": self.exe}
        for k, v in subs.items():
            code = code.replace(k, v)
        return code

    def effects(self, head, before, output):
        """What an attack did that it must not have: a list of reasons."""
        why = []
        for s in self.forms():
            if s in output:
                why.append(f"a secret ({s[:12]}...) appears in the output")
                break
        new = self.watched() - before
        if new:
            why.append("files created outside the workspace: " +
                       ", ".join(sorted(new)[:5]))
            for n in new:
                self.remove(n)
        if self.file_hash() != self.secret_hash:
            why.append("the secret file was changed")
            self.plant_again()
        if head.get("connects") == "yes":
            deadline = time.monotonic() + 1.0
            while not self.listener.count and time.monotonic() < deadline:
                time.sleep(0.05)
            if not self.listener.count:
                why.append("the listener got no connection")
        elif self.listener.count:
            why.append(f"the listener got {self.listener.count} connection(s)")
        self.listener.count = 0
        if self.victim.poll() is not None:
            why.append("the test's victim process was killed")
            self.victim = subprocess.Popen(["sleep", "3600"])
        return why + self.survivors()

    def remove(self, path):
        if os.path.isdir(path) and not os.path.islink(path):
            subprocess.run(["rm", "-rf", path], check=False)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass

    def plant_again(self):
        with open(self.secret_file, "w", encoding="utf-8") as f:
            f.write(self.secret + "\n")

    def strays(self):
        """Processes that came back to this subreaper, and server children
        beyond its idle count."""
        servers = self.servers()
        known = {self.victim.pid} | {srv.p.pid for srv in servers}
        table = proc_table()
        orphans = {p for p, (pp, st) in table.items()
                   if pp == os.getpid() and p not in known
                   and st not in ("Z", "X")}
        extra = sum(len(descendants(srv.p.pid)) for srv in servers) - \
            self.server_kids
        return orphans, extra

    def servers(self):
        """The servers the attacks go through (the unvalidated one too)."""
        return [srv for srv in (getattr(self, "server", None),
                                getattr(self, "raw", None)) if srv]

    def survivors(self):
        deadline = time.monotonic() + SETTLE_S
        while True:
            reap()
            orphans, extra = self.strays()
            if not orphans and extra <= 0:
                return []
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        for p in orphans:
            for q in descendants(p) | {p}:
                try:
                    os.kill(q, 9)
                except OSError:
                    pass
        reap()
        why = []
        if orphans:
            why.append(f"processes outlived the call: {sorted(orphans)}")
        if extra > 0:
            why.append(f"the server has {extra} more child process(es) "
                       "than when idle")
        return why

    def through(self, srv, head, code):
        """(result, why, raw line) of CODE as an execute_code of SRV,
        checked as the header says and for its effects."""
        before = self.watched()
        wait = float(head.get("timeout", "5")) + 60
        line, msg = srv.call(
            "tools/call", {"name": "execute_code",
                           "arguments": execute_args(head, code)}, wait)
        why = []
        res = None
        if msg is None:
            why.append(f"no answer from the server: {line!r:.300}")
        elif "error" in msg:
            why.append(f"JSON-RPC error: {msg['error']}")
        else:
            res = serve_files(msg)
            why += verdict_why(head, res, line or "")
        why += self.effects(head, before, line or "")
        return res, why, line or ""

    def serve_pass(self, name, head, code):
        res, why, line = self.through(self.server, head, code)
        if not self.server.alive():
            why.append("the server does not answer a ping afterwards")
        return classify(res), why, line

    def tool(self, name, args, wait=30.0):
        """(raw line, result) of a tool call; result None on no answer or a
        JSON-RPC error."""
        line, msg = self.server.call("tools/call", {"name": name,
                                                    "arguments": args}, wait)
        return line, (msg or {}).get("result")

    def new_session(self, head):
        args = {"profile": head["profiles"],
                "timeout": float(head.get("timeout", "5"))}
        if "memory" in head:
            args["memory_limit"] = head["memory"]
        _, r = self.tool("create_session", args)
        return ((r or {}).get("structuredContent") or {}).get("session_id")

    def after_attack(self, sid, res):
        """The session after the attack: answering, or ended as its result
        said; never half-broken.  Then closed, and a new one is clean."""
        why = []
        _, r = self.tool("execute_code", {"code": "print(6 * 7)",
                                          "session_id": sid})
        ended = isinstance(res, dict) and res.get("session_ended")
        text = ((r or {}).get("content") or [{}])[0].get("text", "")
        if r is None:
            why.append("no answer to the next call of the session")
        elif ended and not (r.get("isError") and "session ended" in text):
            why.append(f"the session ended, yet its next call: {text:.200}")
        elif not ended and (r.get("structuredContent") or {}).get(
                "status") not in ("ok", "error"):
            why.append(f"the session's next call: {text:.200}")
        self.tool("close_session", {"session_id": sid})
        fresh = self.new_session({"profiles": ["basic"]})
        _, r = self.tool("execute_code", {
            "code": "print([k for k in dir() if not k.startswith('_')])",
            "session_id": fresh or ""})
        out = ((r or {}).get("structuredContent") or {}).get("stdout")
        if out != "[]\n":
            why.append(f"a new session is not clean: {out!r:.200}")
        self.tool("close_session", {"session_id": fresh or ""})
        return why

    def copy_of(self, sid):
        """A copy (fork_session) of SID once it holds a marker; None with
        why if it could not be made."""
        self.tool("execute_code", {"code": "marker = 42", "session_id": sid})
        _, r = self.tool("fork_session", {"session_id": sid})
        copy = ((r or {}).get("structuredContent") or {}).get("session_id")
        text = ((r or {}).get("content") or [{}])[0].get("text", "")
        return copy, [] if copy else [f"fork_session failed: {text:.200}"]

    def original_after(self, orig):
        """The session an attacking copy came from: untouched, then
        closed."""
        _, r = self.tool("execute_code", {
            "code": "print(marker, [k for k in dir() if not "
                    "k.startswith('_')])", "session_id": orig})
        out = ((r or {}).get("structuredContent") or {}).get("stdout")
        self.tool("close_session", {"session_id": orig})
        if out != "42 ['marker']\n":
            return [f"the session the copy came from: {out!r:.200}"]
        return []

    def session_pass(self, name, head, code):
        if "stdin" in head:
            return "skipped (stdin)", [], ""
        before = self.watched()
        sid = self.new_session(head)
        if sid is None:
            return "none", ["create_session failed"], ""
        orig = None
        if head["profiles"] == ["basic"]:
            copy, why = self.copy_of(sid)
            if copy is None:
                self.tool("close_session", {"session_id": sid})
                return "none", why, ""
            orig, sid = sid, copy
        wait = float(head.get("timeout", "5")) + 60
        line, msg = self.server.call(
            "tools/call", {"name": "execute_code",
                           "arguments": {"code": code, "session_id": sid}},
            wait)
        why = []
        res = None
        if msg is None or "error" in msg:
            why.append(f"no result from the server: {line!r:.300}")
        else:
            res = serve_files(msg)
            why += verdict_why(head, res, line or "")
        why += self.after_attack(sid, res)
        if orig is not None:
            why += self.original_after(orig)
        why += self.effects(head, before, line or "")
        return classify(res), why, line

    def run_pass(self, name, head, code):
        """The unvalidated pass: through the --skip-validation server, or
        a `pyward run` of its own (fresh_pass)."""
        if "fresh" in head or "max-output" in head:
            return self.fresh_pass(name, head, code)
        res, why, line = self.through(self.raw, head, code)
        _, r = self.raw.call("tools/call", {
            "name": "execute_code", "arguments": {"code": "print(6 * 7)"}})
        out = (((r or {}).get("result") or {}).get("structuredContent")
               or {}).get("stdout")
        if out != "42\n":
            why.append(f"a normal program fails afterwards: {r!r:.300}")
        return classify(res), why, line

    def fresh_pass(self, name, head, code):
        path = os.path.join(self.work, "cases", name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(code)
        before = self.watched()
        argv = [self.pyward, "run", "--skip-validation", "--json",
                "--timeout", head.get("timeout", "5")]
        for p in head["profiles"]:
            argv += ["--profile", p]
        if "memory" in head:
            argv += ["--memory", head["memory"]]
        if "max-output" in head:
            argv += ["--max-output", head["max-output"]]
        why = []
        try:
            p = subprocess.run(argv + [path], input=head.get("stdin", "")
                               .encode() + b"\n", capture_output=True,
                               timeout=float(head.get("timeout", "5")) + 60,
                               check=False, env=self.run_env)
            out = (p.stdout + p.stderr).decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            out = ((e.stdout or b"") + (e.stderr or b"")).decode(
                "utf-8", "replace")
            why.append("pyward run did not return")
        res = None
        try:
            res = report_shape(json.loads(out.strip().splitlines()[0]))
        except (ValueError, IndexError):
            why.append(f"no JSON result: {out[:300]!r}")
        why += verdict_why(head, res, out)
        why += self.effects(head, before, out)
        why += self.healthy()
        return classify(res), why, out

    def healthy(self):
        """A normal program still runs after a case (nothing it left behind
        breaks the next run)."""
        try:
            p = subprocess.run([self.pyward, "run", "--skip-validation", "-"],
                               input=b"print(6 * 7)\n", capture_output=True,
                               timeout=60, check=False, env=self.run_env)
            out = (p.stdout + p.stderr).decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            out = "no answer"
        return [] if out == "42\n" else [
            f"a normal program fails afterwards: {out[:300]!r}"]

    def attack(self, cat, name, path, head):
        code = self.substitute(path, name)
        what = "ran as expected" if cat == "programs" else "contained"
        s_layer, s_why, s_out = self.serve_pass(name, head, code)
        self.tap.point(f"serve {cat}/{name}: {what} ({s_layer})",
                       s_why + ([(s_out or "")[:1000]] if s_why else []))
        if self.opts.verbose:
            print(f"# {summary(s_out)} server_rss={self.server.rss_kb()}")
        if self.opts.serve_only:
            self.rows.append((name, cat, s_layer, "-"))
            return
        t_layer, t_why, t_out = self.session_pass(name, head, code)
        self.tap.point(f"session {cat}/{name}: {what} ({t_layer})",
                       t_why + ([(t_out or "")[:1000]] if t_why else []))
        r_layer, r_why, r_out = self.run_pass(name, head, code)
        # A regression names the layer that must stop it without validation.
        want = head.get("run-layer")
        if want and r_layer != want:
            r_why.append(f"stopped by {r_layer}, not by {want}")
        self.tap.point(f"run {cat}/{name}: {what} ({r_layer})",
                       r_why + ([r_out[:1000]] if r_why else []))
        if self.opts.verbose:
            print(f"# {summary(r_out)}")
        self.rows.append((name, cat, s_layer, r_layer))

    def start(self):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed")
        os.makedirs(os.path.join(self.work, "cases"))
        self.listener = Listener()
        self.listener.start()
        self.victim = subprocess.Popen(["sleep", "3600"])
        self.log_path = os.path.join(self.work, "serve.log")
        self.log = open(self.log_path, "wb")
        kind = HttpServer if self.opts.transport == "http" else Server
        # --packages NAME: both servers attach that package set.
        sets = ("--packages", self.opts.packages) if self.opts.packages \
            else ()
        self.server = Server(self.pyward, self.log, sets) if sets \
            else kind(self.pyward, self.log)
        self.server_kids = 0
        ok = self.server.start()
        if not self.opts.serve_only:
            self.raw = Server(self.pyward, self.log,
                              ("--skip-validation", *sets))
            ok = self.raw.start() and ok
        # Warm-up: normal runs and both floods, so the baseline holds the
        # server's output buffers at their high-water mark; growth past it
        # over the suite is what the RSS bound is about.
        warm = {"profiles": ["basic"], "timeout": "3"}
        for srv in self.servers():
            for code in WARM_UP:
                srv.call("tools/call", {"name": "execute_code",
                                        "arguments": execute_args(warm, code)})
        # The baseline is taken once the data-science imports are done (the
        # warm-up runs, of the light zygote, need not wait for them) and
        # the zygotes' pools stay as they are.
        for srv in self.servers():
            self.wait_warm(srv)
        self.server_kids = steady(lambda: sum(
            len(descendants(srv.p.pid)) for srv in self.servers()))
        self.rss0 = {srv: srv.rss_kb() for srv in self.servers()}
        self.fds0 = {srv: len(os.listdir(f"/proc/{srv.p.pid}/fd"))
                     for srv in self.servers()}
        self.tap.point("pyward serve starts and initializes",
                       [] if ok else ["initialize failed"])

    @staticmethod
    def wait_warm(srv):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            _, msg = srv.call("tools/call", {
                "name": "get_sandbox_info", "arguments": {}})
            text = json.dumps(msg)
            if "importing the profiles' modules" not in text:
                return
            time.sleep(0.2)

    def finish(self):
        codes = [(what, self.finish_server(srv, what)) for srv, what in zip(
            self.servers(), ("the server", "the unvalidated server"))]
        self.log.close()
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            log = f.read()
        leaked = [s for s in self.forms() if s in log]
        # The end of the server's log says why it did not exit cleanly
        # (lines naming a secret left out: the next point reports those).
        tail = [line for line in log.splitlines()[-60:]
                if not any(s in line for s in self.forms())]
        how = "SIGTERM" if self.opts.transport == "http" else "EOF"
        for what, code in codes:
            self.tap.point(f"{what} exits cleanly on {how} "
                           f"(status {code})",
                           [] if code == 0 else [f"exit status {code}"] + tail)
        self.tap.point("no secret in the servers' log",
                       [f"{leaked[0][:12]}... in the log"] if leaked else [])

    def finish_server(self, srv, what):
        """The checks of SRV after every attack; its exit status."""
        alive = srv.alive()
        self.tap.point(f"{what} still answers after every attack",
                       [] if alive else ["no answer to ping"])
        # Its children as when idle: the last run's spare replaced.
        steady(lambda: len(descendants(srv.p.pid)), still=0.5, limit=10)
        rss = srv.rss_kb()
        growth = rss - self.rss0[srv]
        name = (f"{what}: RSS after warm-up {self.rss0[srv]} kB -> {rss} kB "
                f"(growth {growth} kB < {RSS_BOUND_KB} kB)")
        if os.environ.get("PW_SANITIZED") == "1":
            # ASan's quarantine keeps freed memory; LeakSanitizer checks
            # the server's exit instead (the point after the next).
            self.tap.point(name + " # SKIP sanitized build", [])
        else:
            self.tap.point(name, [] if growth < RSS_BOUND_KB
                           else ["the server's memory grew"])
        fds = len(os.listdir(f"/proc/{srv.p.pid}/fd"))
        self.tap.point(f"{what}: open fds {self.fds0[srv]} -> {fds}",
                       [] if fds <= self.fds0[srv]
                       else ["the server leaks fds"])
        srv.close()
        return srv.p.wait(timeout=30)

    def stop(self):
        """Whatever happened, leave no process of ours behind."""
        for p in [srv.p for srv in self.servers()] + [
                getattr(self, "victim", None)]:
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()

    def table(self, out, prefix):
        rows = [("attack", "category", "serve (validated)",
                 "unvalidated")] + self.rows
        w = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            print(prefix + "  ".join(c.ljust(w[i]) for i, c in
                                     enumerate(r)).rstrip(), file=out)
        counts = {}
        for r in self.rows:
            for layer in (r[2], r[3]):
                if layer != "-":  # no unvalidated pass (--serve-only)
                    counts[layer] = counts.get(layer, 0) + 1
        print(prefix + "stopping layers over both passes: " + ", ".join(
            f"{k} {v}" for k, v in sorted(counts.items(),
                                          key=lambda kv: -kv[1])), file=out)
        cats = sorted({r[1] for r in self.rows})
        print(f"{prefix}{len(self.rows)} attacks in {len(cats)} categories",
              file=out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--work", required=True)
    ap.add_argument("--srcdir", default=".")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--transport", choices=("stdio", "http"),
                    default="stdio")
    ap.add_argument("--serve-only", action="store_true")
    ap.add_argument("--packages", default=None)
    ap.add_argument("dirs", nargs="+")
    opts = ap.parse_args()
    suite = Suite(opts)
    attacks, bad = collect(opts.dirs, set(opts.only))
    t0 = time.monotonic()
    try:
        suite.start()
        for path in bad:
            suite.tap.point(f"{path} has a header and a name of its own", [
                "a \"# category:\" naming its folder and \"# attack:\", "
                "or \"# program:\" alone; a name no other file has"])
        for cat, name, path, head in attacks:
            suite.attack(cat, name, path, head)
        suite.finish()
    finally:
        suite.stop()
    if not opts.only and not opts.packages:
        cats = {a[0] for a in attacks} - {"programs"}
        n = sum(a[0] != "programs" for a in attacks)
        suite.tap.point(
            f"{n} attacks cover the ten categories",
            [f"unknown category {c}" for c in sorted(cats - set(CATEGORIES))]
            + [f"no attack in {c}" for c in CATEGORIES if c not in cats])
    print(f"# {len(attacks)} attacks and programs x 3 passes in "
          f"{time.monotonic() - t0:.1f} s")
    if opts.table:
        suite.table(sys.stdout, "")
    else:
        suite.table(sys.stdout, "# ")
    print(f"1..{suite.tap.n}", file=suite.tap.out)
    return 1 if opts.table and suite.tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
