# SPDX-License-Identifier: Apache-2.0
"""tests/jobe/test_jobe.py - the Jobe API of `pyward serve --http --jobe`.

What Moodle CodeRunner relies on, through python3's http.client against
a server on 127.0.0.1: the languages, runs and their outcome codes (11
compile error, 12 runtime error, 13 time limit, 15 success, 17 memory
limit, 21 overload), stdin, files written and read, interpreter
arguments (-c), runargs as sys.argv, a cputime of the run's own, support
files PUT, checked with HEAD and used by a run, Jobe's 400 and 404
messages (numbers out of range among them), the X-API-KEY check, the
server's tokens when it has no keys, and the routes with and without
index.php.  Support files by reference: a 5 MiB file named 63 times
(the server answers others meanwhile), five such runs queued within a
bound on the server's RSS, the cache's cap (least recently used first,
never a held file), a queued run keeping its files as POSTed, and
attacks on names, ids, the cache directory and the cached files.  File
PUTs read as they come: four of 8 MiB at once within a bound on the
server's RSS, /healthz and another client's run answered while one is
sending, the bytes stored exactly, a client leaving mid-PUT.  TAP on
stdout.
"""
import base64
import hashlib
import http.client
import json
import os
import re
import resource
import shutil
import socket
import sys
import subprocess
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module
from serve_client import HttpServer, all_read, busy_vproc  # noqa: E402
from bigprog import big_program  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
API = "/jobe/index.php/restapi"

def check(name, cond, detail=""):
    """One TAP point, named first as these tests read."""
    point(cond, name, detail)


class Server(HttpServer):
    """`pyward serve --http 127.0.0.1:0 --jobe` with a file cache of its
    own; ARGS are more flags, NOFILE the server's RLIMIT_NOFILE."""

    STOP_S = 30

    def __init__(self, *args, nofile=None, own_files=False):
        """OWN_FILES: no --jobe-files; the server makes its cache's
        directory under self.tmp (its TMPDIR)."""
        self.dir = tempfile.mkdtemp(prefix="pyward-jobe-")
        self.files = os.path.join(self.dir, "files")
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)

        def limits():
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        files = [] if own_files else ["--jobe-files", self.files]
        super().__init__(PYWARD, ["--jobe", *files, *args],
                         preexec_fn=limits,
                         env=dict(os.environ, TMPDIR=self.tmp))

    def request(self, method, path, body=None, headers=None, sent=None,
                raw_body=None):
        """(status, decoded JSON body or None); SENT (an Event) is set
        once the request is written; RAW_BODY (bytes) is sent as is."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        h = {"Content-Type": "application/json; charset=utf-8",
             "Accept": "application/json"}
        h.update(headers or {})
        data = json.dumps(body) if body is not None else raw_body
        c.request(method, path, data, h)
        if sent is not None:
            sent.set()
        r = c.getresponse()
        raw = r.read()
        c.close()
        if not raw:
            return r.status, None
        if r.getheader("Content-Type", "").startswith("application/json"):
            return r.status, json.loads(raw)
        return r.status, raw.decode("utf-8", "replace")

    def metric(self, name):
        """The value of gauge NAME on /metrics."""
        _, text = self.request("GET", "/metrics")
        m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
        return float(m.group(1)) if m else None

    def wait_metric(self, name, value):
        """Poll /metrics until NAME is VALUE (the server's own count: no
        clock in the assertion); False if it never is within a minute."""
        for _ in range(6000):
            if self.metric(name) == value:
                return True
            threading.Event().wait(0.01)
        return False

    def status(self, key):
        """KEY of /proc/PID/status, in KiB."""
        with open("/proc/%d/status" % self.proc.pid) as f:
            m = re.search(r"^%s:\s+(\d+) kB" % key, f.read(), re.M)
        return int(m.group(1))

    def request_text(self, path):
        """The body of GET PATH, as text."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", path)
        text = c.getresponse().read().decode("utf-8", "replace")
        c.close()
        return text

    def run(self, spec, headers=None, route=API, sent=None):
        spec = dict({"language_id": "python3", "sourcefilename": "test.py"},
                    **spec)
        return self.request("POST", route + "/runs", {"run_spec": spec},
                            headers, sent=sent)

    def put(self, file_id, data):
        return self.request("PUT", API + "/files/" + file_id, {
            "file_contents": base64.b64encode(data).decode()})

    def stop(self):
        super().stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def expect_run(srv, name, spec, outcome, stdout=None, also=None):
    st, res = srv.run(spec)
    ok = st == 200 and isinstance(res, dict) and \
        set(res) == {"run_id", "outcome", "cmpinfo", "stdout", "stderr"} and \
        res["outcome"] == outcome and \
        (stdout is None or res["stdout"] == stdout) and \
        (also is None or also(res))
    check(name, ok, f"{st} {res}")
    return res


def test_languages(srv):
    for route in (API, "/jobe/restapi", "/restapi"):
        st, res = srv.request("GET", route + "/languages")
        check(f"GET {route}/languages lists python3 with its version",
            st == 200 and res == [["python3", "%d.%d" % (
                sys.version_info[0], sys.version_info[1])]], f"{st} {res}")


def test_outcomes(srv):
    expect_run(srv, "hello world: 15 and its output",
               {"sourcecode": 'print("Hello world!")\n'}, 15,
               "Hello world!\n")
    expect_run(srv, "stdin is the run's input",
               {"sourcecode": "print(input())\nprint(input())\n",
                "input": "Line1\nLine2\n"}, 15, "Line1\nLine2\n")
    expect_run(srv, "a syntax error is a compile error (11) with cmpinfo",
               {"sourcecode": 'print("Hello world!"\n'}, 11, "",
               lambda r: 'File "test.py", line 1' in r["cmpinfo"] and
               "SyntaxError" in r["cmpinfo"])
    expect_run(srv, "an exception is a runtime error (12), its traceback "
               "naming the file",
               {"sourcecode": "data = [1, 2]\nprint(data[2])\n"}, 12, "",
               lambda r: 'File "test.py", line 2' in r["stderr"] and
               "IndexError" in r["stderr"])
    expect_run(srv, "a compile-time warning names the file, as python3's",
               {"sourcecode": "x = 1\nif x is 1:\n    print(x)\n"}, 12,
               "1\n", lambda r: r["stderr"].startswith(
                   "test.py:2: SyntaxWarning: \"is\" with a literal"))
    expect_run(srv, "output to stderr makes a runtime error, as in Jobe",
               {"sourcecode": "import sys\nsys.stderr.write('x\\n')\n"}, 12,
               "", lambda r: r["stderr"] == "x\n")
    expect_run(srv, "sys.exit(3) without stderr is a success, as in Jobe",
               {"sourcecode": "import sys\nprint(1)\nsys.exit(3)\n"}, 15,
               "1\n")
    expect_run(srv, "an endless loop is a time limit (13)",
               {"sourcecode": "while True:\n    pass\n",
                "parameters": {"cputime": 1}}, 13)
    expect_run(srv, "a run over its memory limit is 17",
               {"sourcecode": "x = bytearray(900 * 1024 * 1024)\n"
                "print(len(x))\n",
                "parameters": {"memorylimit": 200}}, 17)
    expect_run(srv, "subprocess is refused before the run (11) and named",
               {"sourcecode": "import subprocess\n"
                "subprocess.run(['pylint'])\n"}, 11, "",
               lambda r: "'subprocess'" in r["cmpinfo"])
    expect_run(srv, "UTF-8 output comes back as text",
               {"sourcecode": 'print("Un rôle délétère")\n'}, 15,
               "Un rôle délétère\n")


# What a student must never read: the tool's words.
JARGON = ("PW", "profile", "get_sandbox_info", "pyward rules", "pyward")


def jargon_in(res):
    """The jargon words in a result's student-visible fields."""
    text = "\n".join(str(res.get(k, "")) for k in ("cmpinfo", "stdout",
                                                    "stderr"))
    return [w for w in JARGON if w in text]


def test_plain_words(srv):
    """Refusals and errors a student reads through the API are python3's
    own messages or plain sentences: no rule code, tool or profile
    name; every answer's run_id has one shape."""
    cases = [
        ("import os", "import os\nprint(os.getcwd())\n", 11,
         "test.py:1: this course's sandbox does not allow importing 'os'\n"),
        ("import numpy without data_science", "import numpy\n", 11,
         "test.py:1: this course's sandbox does not allow importing "
         "'numpy'\n"),
        ("eval()", "print(eval('1 + 1'))\n", 11,
         "test.py:1: this course's sandbox does not allow eval()\n"),
        ("a dunder attribute", "print((1).__class__.__bases__)\n", 11,
         None),
        ("sys.__stdout__ assigned", "import sys\nsys.__stdout__ = None\n",
         11, None),
        ("a syntax error", "x = (\n", 11, None),
        ("a missing module", "import no_such_module_here\n", 12, None),
        ("a runtime error", "print(1 / 0)\n", 12, None),
        ("a name starting with _", "_x = 1\n", 11, None),
        ("open() outside the workspace", "open('/etc/passwd')\n", 12, None),
        ("a sys member the facade lacks", "import sys\nsys.modules\n", 11,
         None),
        ("a program past the validator's 1 MiB",
         "#" * (1536 * 1024) + "\n", 11,
         "test.py:1: the program is too large; make it shorter\n"),
        ("a program past the 2 MiB the server takes",
         "#" * (3 * 1024 * 1024) + "\n", 11,
         "test.py:1: the program is too large; make it shorter\n"),
    ]
    ids = []
    for name, code, outcome, cmpinfo in cases:
        res = expect_run(srv, f"plain words: {name} ({outcome})",
                         {"sourcecode": code}, outcome, None,
                         lambda r, c=cmpinfo: c is None or r["cmpinfo"] == c)
        if isinstance(res, dict):
            check(f"no jargon in what the student reads: {name}",
                  not jargon_in(res), f"{jargon_in(res)} {res}")
            ids.append(res.get("run_id"))
    check("every run_id has one shape (exec-N) and none repeats",
          all(isinstance(i, str) and re.fullmatch(r"exec-\d+", i)
              for i in ids) and len(set(ids)) == len(ids), ids)
    expect_run(srv, "a missing module is python3's own error",
               {"sourcecode": "import no_such_module_here\n"}, 12, "",
               lambda r: r["stderr"].rstrip().endswith(
                   "ModuleNotFoundError: No module named "
                   "'no_such_module_here'"))


def test_program_features(srv):
    expect_run(srv, "sys.setrecursionlimit and getrecursionlimit, capped",
               {"sourcecode": "import sys\nprint(sys.getrecursionlimit())\n"
                "sys.setrecursionlimit(5000)\n"
                "print(sys.getrecursionlimit())\n"
                "sys.setrecursionlimit(10 ** 9)\n"
                "print(sys.getrecursionlimit())\n"
                "def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\n"
                "print(d(20000))\n"}, 15, "1000\n5000\n100000\n20000\n")
    expect_run(srv, "sys.__stdout__ writes to the run's output after a "
               "template swapped sys.stdout",
               {"sourcecode": "import io, sys\nsys.stdout = io.StringIO()\n"
                "print('captured')\n"
                "sys.__stdout__.write('real ' + sys.stdout.getvalue())\n"
                "print(sys.__stdin__ is not None, sys.__stderr__ is not None,"
                " file=sys.__stdout__)\n"}, 15, "real captured\nTrue True\n")
    expect_run(srv, "a file written then read in the workspace",
               {"sourcecode": "with open('out.txt', 'w') as f:\n"
                "    f.write('One fish\\nTwo fish\\n')\n"
                "with open('out.txt') as f:\n"
                "    print(f.read(), end='')\n"}, 15,
               "One fish\nTwo fish\n")
    expect_run(srv, "open() outside the workspace fails",
               {"sourcecode": "try:\n    open('/etc/passwd').read()\n"
                "    print('read')\nexcept OSError:\n    print('refused')\n"},
               15, "refused\n")
    expect_run(srv, "a CodeRunner template's names (__saved_input__, "
               "__student_answer__) and its input() that echoes",
               {"sourcecode": "__saved_input__ = input\n"
                "def input(prompt=''):\n"
                "    s = __saved_input__(prompt)\n    print(s)\n    return s\n"
                "__student_answer__ = 'n = int(input())'\n"
                "n = int(input('n? '))\nprint(n * 2, len(__student_answer__))\n",
                "input": "21\n"}, 15, "n? 21\n42 16\n")
    expect_run(srv, "interpreterargs -c CODE runs CODE instead",
               {"sourcecode": "\n",
                "parameters": {"interpreterargs": ['-c "print(\\"Blah\\")"']}},
               15, "Blah\n")
    expect_run(srv, "harmless interpreter flags are accepted",
               {"sourcecode": "print(2)\n",
                "parameters": {"interpreterargs": ["-BE", "-u"]}}, 15, "2\n")
    expect_run(srv, "runargs are sys.argv[1:], the file name sys.argv[0]",
               {"sourcecode": "import sys\nprint(sys.argv)\n",
                "parameters": {"runargs": ["Arg1", "Arg 2"]}}, 15,
               "['test.py', 'Arg1', 'Arg 2']\n")
    expect_run(srv, "a cputime of the run's own lets it work longer than "
               "the default",
               {"sourcecode": "from time import perf_counter\n"
                "t = perf_counter()\n"
                "while perf_counter() < t + 6: pass\nprint('done')\n",
                "parameters": {"cputime": 8}}, 15, "done\n")


def test_files(srv):
    a, b = "fileaaaa0001", "filebbbb0002"
    st1, _ = srv.put(a, b"The first file\nLine 2")
    st2, _ = srv.put(b, "Second file é".encode())
    check("PUT files: 204", (st1, st2) == (204, 204), f"{st1} {st2}")
    st, _ = srv.request("HEAD", API + "/files/" + a)
    check("HEAD of a file PUT: 204", st == 204, st)
    st, _ = srv.request("HEAD", API + "/files/nosuchfile99")
    check("HEAD of an unknown file: 404", st == 404, st)
    expect_run(srv, "a run reads its support files by their names",
               {"sourcecode": "print(open('file1').read())\n"
                "print(open('file2').read())\n",
                "file_list": [[a, "file1"], [b, "file2"]]}, 15,
               "The first file\nLine 2\nSecond file é\n")
    src = ("import sys\nprint(len(open(sys.argv[0]).read()))\n"
           "print(open('same').read())\n")
    expect_run(srv, "the source is in the workspace under its file name, "
               "and the later of two support files of one name wins",
               {"sourcecode": src, "file_list": [[a, "same"], [b, "same"]]},
               15, "%d\nSecond file é\n" % len(src))
    big = bytes(range(256)) * 4096  # 1 MiB, every byte value
    srv.put("bigbinary0003", big)
    expect_run(srv, "a 1 MiB binary support file arrives whole",
               {"sourcecode": "import hashlib\n"
                "d = open('big.bin', 'rb').read()\n"
                "print(len(d), hashlib.sha256(d).hexdigest())\n",
                "file_list": [["bigbinary0003", "big.bin"]]}, 15,
               "%d %s\n" % (len(big), hashlib.sha256(big).hexdigest()))
    st, res = srv.run({"sourcecode": "print(1)\n",
                       "file_list": [["nosuchfileid", "file1"]]})
    check("a missing support file: 404 with Jobe's message",
        st == 404 and res == "One or more of the specified files is "
        "missing/unavailable", f"{st} {res}")
    for bad in ("../x", "a/b", ".."):
        st, res = srv.run({"sourcecode": "print(1)\n",
                           "file_list": [[a, bad]]})
        check(f"a support file named {bad!r}: 400",
            st == 400 and str(res).startswith("Invalid file specifier"),
            f"{st} {res}")
    st, res = srv.request("PUT", API + "/files/" + a, {"file_contents": "@@"})
    check("PUT of contents that are not base64: 400",
        st == 400 and "not valid base-64" in res, f"{st} {res}")
    st, res = srv.request("PUT", API + "/files/" + a, {"other": 1})
    check("PUT without file_contents: 400",
        st == 400 and res == "put: missing file_contents parameter",
        f"{st} {res}")


def test_bad_specs(srv):
    cases = [
        ({"language_id": "nosuchlanguage", "sourcecode": "print(1)\n"},
         "Language 'nosuchlanguage' is not known"),
        ({"language_id": None, "sourcecode": "print(1)\n"},
         "run_spec is missing the required attribute 'language_id'"),
        ({"sourcecode": None},
         "run_spec is missing the required attribute 'sourcecode'"),
        ({"sourcecode": "print(1)\n", "parameters": {"cputime": 100000}},
         None),
        ({"sourcecode": "print(1)\n", "parameters": {"cputime": 1e308}},
         "cputime exceeds maximum allowed on this Jobe server (300 secs)"),
        ({"sourcecode": "print(1)\n", "parameters": {"cputime": -1}},
         "cputime must be a number of seconds from 0 to 300 (0: the "
         "default, 5)"),
        ({"sourcecode": "print(1)\n", "parameters": {"memorylimit": 1e308}},
         "memorylimit exceeds maximum allowed on this Jobe server (4096 MB)"),
        ({"sourcecode": "print(1)\n", "parameters": {"memorylimit": 4097}},
         "memorylimit exceeds maximum allowed on this Jobe server (4096 MB)"),
        ({"sourcecode": "print(1)\n", "parameters": {"memorylimit": -5}},
         "memorylimit must be a number of MB from 0 to 4096 (0: the "
         "default, 1000)"),
        ({"sourcecode": "print(1)\n", "sourcefilename": "../x.py"},
         "The sourcefilename for the run_spec is illegal"),
        ({"sourcecode": "print(1)\n",
          "parameters": {"interpreterargs": ["-m pylint"]}}, None),
    ]
    for spec, msg in cases:
        spec = {k: v for k, v in dict(
            {"language_id": "python3"}, **spec).items() if v is not None}
        st, res = srv.request("POST", API + "/runs", {"run_spec": spec})
        check(f"400 for {json.dumps(spec)[:60]}",
            st == 400 and isinstance(res, str) and
            (msg is None or res == msg), f"{st} {res}")
    # An integer past 64 bits is read as a number, and refused as one.
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)
    c.request("POST", API + "/runs", '{"run_spec": {"language_id": '
              '"python3", "sourcecode": "print(1)", "parameters": '
              '{"cputime": 123456789012345678901234567890}}}',
              {"Content-Type": "application/json"})
    r = c.getresponse()
    res = json.loads(r.read())
    c.close()
    check("a cputime past 64 bits: 400 cputime exceeds ...",
          r.status == 400 and res.startswith("cputime exceeds maximum"),
          f"{r.status} {res}")
    st, res = srv.request("POST", API + "/runs", {"no": "spec"})
    check("a body without run_spec: 400", st == 400 and "run_spec" in res,
        f"{st} {res}")


def test_operator_profiles():
    """A Jobe run may use every profile the server was started with:
    with --profiles basic,data_science, numpy, pandas and matplotlib
    import and work through the API."""
    srv = Server("--profiles", "basic,data_science")
    try:
        expect_run(srv, "numpy through the Jobe API (--profiles data_science)",
                   {"sourcecode": "import numpy as np\n"
                                  "print(int(np.arange(5).sum()))\n"}, 15,
                   "10\n")
        expect_run(srv, "pandas through the Jobe API",
                   {"sourcecode": "import pandas as pd\n"
                                  "print(int(pd.Series([1, 2]).sum()))\n"},
                   15, "3\n")
        expect_run(srv, "matplotlib through the Jobe API",
                   {"sourcecode": "import matplotlib.pyplot as plt\n"
                                  "plt.plot([1, 2])\nprint('plotted')\n"},
                   15, "plotted\n")
        expect_run(srv, "the jobe profile still gives sys and open() beside "
                   "them", {"sourcecode": "import sys, numpy\n"
                            "open('f', 'w').write(sys.argv[0])\n"
                            "print(open('f').read())\n"}, 15, "test.py\n")
    finally:
        srv.stop()


def test_private_cache():
    """Without --jobe-files each server makes a cache directory of its own
    (0700, under its TMPDIR), which another server does not see and
    which goes when it stops; a directory others may read is refused."""
    one = Server(own_files=True)
    two = Server(own_files=True)
    try:
        st1, _ = one.put("privfile0001", b"one's bytes")
        dirs = [os.path.join(s.tmp, n) for s in (one, two)
                for n in os.listdir(s.tmp) if n.startswith("pyward-jobe-")]
        modes = [os.stat(d).st_mode & 0o777 for d in dirs]
        check("each server's cache is a 0700 directory of its own",
              st1 == 204 and len(dirs) == 2 and dirs[0] != dirs[1] and
              modes == [0o700, 0o700], f"{st1} {dirs} {modes}")
        head, _ = two.request("HEAD", API + "/files/privfile0001")
        st, res = two.run({"sourcecode": "print(open('f').read())\n",
                           "file_list": [["privfile0001", "f"]]})
        check("another server does not see a server's files",
              head == 404 and st == 404, f"{head} {st} {res}")
    finally:
        one.stop()
        two.stop()
    check("the cache's directory goes when the server stops",
          not any(os.path.exists(d) for d in dirs), dirs)
    d = tempfile.mkdtemp(prefix="pyward-jobe-open-")
    os.chmod(d, 0o755)
    proc = subprocess.run(
        [PYWARD, "serve", "--http", "127.0.0.1:0", "--jobe", "--jobe-files",
         d], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=60)
    check("--jobe-files: a directory others may read is refused (exit 2)",
          proc.returncode == 2 and "0700" in proc.stderr,
          f"{proc.returncode} {proc.stderr}")
    shutil.rmtree(d, ignore_errors=True)


def test_key_quotas():
    """With --jobe-keys each key has its files and its share of the cache:
    one key's PUTs, however many, never evict another key's file, and a
    key sees no other key's files."""
    d = tempfile.mkdtemp(prefix="pyward-jobe-keys-")
    keys = os.path.join(d, "keys")
    with open(keys, "w") as f:
        f.write("key-of-moodle-a\nkey-of-moodle-b\n")
    srv = Server("--jobe-keys", keys, "--jobe-files-max", "1M")
    ka = {"X-API-KEY": "key-of-moodle-a"}
    kb = {"X-API-KEY": "key-of-moodle-b"}

    def put(key, fid, data):
        return srv.request("PUT", API + "/files/" + fid, {
            "file_contents": base64.b64encode(data).decode()}, key)[0]

    try:
        st = put(kb, "bfile000001", b"b's support file\n")
        chunk = os.urandom(100 * 1024)
        sts = {put(ka, "afile%06d" % i, chunk) for i in range(45)}
        head_b, _ = srv.request("HEAD", API + "/files/bfile000001",
                                headers=kb)
        st_run, res = srv.run({"sourcecode": "print(open('f').read(), "
                                             "end='')\n",
                               "file_list": [["bfile000001", "f"]]},
                              headers=kb)
        check("45 PUTs of 100 KiB by one key (past its 512 KiB share) "
              "evict none of another key's files",
              st == 204 and sts == {204} and head_b == 204 and
              st_run == 200 and res["stdout"] == "b's support file\n",
              f"{st} {sts} {head_b} {st_run} {res}")
        heads = [srv.request("HEAD", API + "/files/afile%06d" % i,
                             headers=ka)[0] for i in (0, 44)]
        check("the key over its share lost its own oldest file",
              heads == [404, 204], heads)
        head_a, _ = srv.request("HEAD", API + "/files/bfile000001",
                                headers=ka)
        st_run, res = srv.run({"sourcecode": "print(1)\n",
                               "file_list": [["bfile000001", "f"]]},
                              headers=ka)
        check("a key does not see another key's files",
              head_a == 404 and st_run == 404, f"{head_a} {st_run} {res}")
    finally:
        srv.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_keys():
    d = tempfile.mkdtemp(prefix="pyward-jobe-keys-")
    keys = os.path.join(d, "keys")
    with open(keys, "w") as f:
        f.write("# CodeRunner's key\nsecret-key-1\n")
    srv = Server("--jobe-keys", keys)
    try:
        st, _ = srv.request("GET", API + "/languages")
        check("--jobe-keys: no X-API-KEY is 403", st == 403, st)
        st, _ = srv.request("GET", API + "/languages",
                            headers={"X-API-KEY": "secret-key-2"})
        check("--jobe-keys: a wrong X-API-KEY is 403", st == 403, st)
        st, res = srv.run({"sourcecode": "print(5)\n"},
                          headers={"X-API-KEY": "secret-key-1"})
        check("--jobe-keys: the right X-API-KEY runs",
            st == 200 and res["outcome"] == 15, f"{st} {res}")
    finally:
        srv.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_tokens():
    """--auth-token-file without --jobe-keys: a token, as X-API-KEY or a
    bearer token; with --jobe-keys too, the keys alone."""
    d = tempfile.mkdtemp(prefix="pyward-jobe-tokens-")
    tokens = os.path.join(d, "tokens")
    keys = os.path.join(d, "keys")
    with open(tokens, "w") as f:
        f.write("mcp-token-1\n")
    with open(keys, "w") as f:
        f.write("jobe-key-1\n")
    srv = Server("--auth-token-file", tokens)
    try:
        st, res = srv.run({"sourcecode": "print(5)\n"})
        check("a token file, no keys: a run without a token is 403",
              st == 403 and
              res == "Forbidden: a valid X-API-KEY header is needed",
              f"{st} {res}")
        st, _ = srv.request("GET", API + "/languages",
                            headers={"X-API-KEY": "mcp-token-2"})
        check("a token file, no keys: a wrong X-API-KEY is 403", st == 403,
              st)
        st, res = srv.run({"sourcecode": "print(5)\n"},
                          headers={"X-API-KEY": "mcp-token-1"})
        check("a token file, no keys: the token as X-API-KEY runs",
              st == 200 and res["outcome"] == 15, f"{st} {res}")
        st, res = srv.run({"sourcecode": "print(5)\n"},
                          headers={"Authorization": "Bearer mcp-token-1"})
        check("a token file, no keys: the token as a bearer token runs",
              st == 200 and res["outcome"] == 15, f"{st} {res}")
    finally:
        srv.stop()
    srv = Server("--auth-token-file", tokens, "--jobe-keys", keys)
    try:
        st, _ = srv.request("GET", API + "/languages",
                            headers={"X-API-KEY": "mcp-token-1"})
        check("tokens and keys: a token as X-API-KEY is 403", st == 403, st)
        st, _ = srv.request("GET", API + "/languages",
                            headers={"Authorization": "Bearer mcp-token-1"})
        check("tokens and keys: a bearer token is 403", st == 403, st)
        st, _ = srv.request("GET", API + "/languages",
                            headers={"X-API-KEY": "jobe-key-1"})
        check("tokens and keys: a key is taken", st == 200, st)
    finally:
        srv.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_overload():
    srv = Server("--max-concurrency", "1", "--max-queued", "1")
    try:
        results = []

        def one(code):
            results.append(srv.run({"sourcecode": code}))

        # One run in flight (the server says so), then four at once: one
        # waits for it, the others find the queue full.
        threads = [threading.Thread(target=one, args=(
            "import time\ntime.sleep(1.5)\nprint(1)\n" if k == 0 else
            "print(1)\n",)) for k in range(5)]
        threads[0].start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not re.search(
                r"^pyward_runs_in_flight 1$",
                srv.request_text("/metrics"), re.M):
            time.sleep(0.02)
        for t in threads[1:]:
            t.start()
        for t in threads:
            t.join()
        outcomes = sorted(r[1]["outcome"] for r in results if r[0] == 200)
        check("a full queue answers outcome 21 (server overload), the rest "
            "run", len(outcomes) == 5 and 21 in outcomes and 15 in outcomes,
            results)
        expect_run(srv, "Jobe's overload test source answers 21, as Jobe "
                   "does, without a run",
                   {"sourcecode": "!** TESTING OVERLOAD EXCEPTION **!"}, 21,
                   "", lambda r: r["stderr"] == "" and r["cmpinfo"] == "")
        expect_run(srv, "the same text inside a program is a program: a "
                   "compile error",
                   {"sourcecode": "!** TESTING OVERLOAD EXCEPTION **!\n"},
                   11)
    finally:
        srv.stop()


# --- support files by reference ------------------------------------------

FIVE_MIB = 5 << 20

# A program that checks N files f0..f{N-1}: each SIZE bytes of SHA-256
# SHA; prints how many are.
BIG_CHECK = """import hashlib
ok = 0
for i in range({n}):
    d = open('f%d' % i, 'rb').read()
    ok += len(d) == {size} and hashlib.sha256(d).hexdigest() == '{sha}'
print(ok)
"""


def big_spec(ids, n, data, tail=""):
    """A run naming the files IDS (cycled) N times as f0..f{N-1}, all of
    them DATA, that checks them, then runs TAIL."""
    src = BIG_CHECK.format(n=n, size=len(data),
                           sha=hashlib.sha256(data).hexdigest()) + tail
    return {"sourcecode": src,
            "file_list": [[ids[i % len(ids)], "f%d" % i] for i in range(n)],
            "parameters": {"cputime": 20}}


def in_thread(fn, *args, **kw):
    """Start FN(*ARGS, **KW) in a thread; returns (thread, result list)."""
    out = []
    t = threading.Thread(target=lambda: out.append(fn(*args, **kw)))
    t.start()
    return t, out


def test_big_files():
    """One cached 5 MiB file named 63 times: one copy and 62 links in the
    run's workspace, never in the server's memory; the server answers
    others meanwhile; bad lists get bounded, clear answers."""
    srv = Server("--max-concurrency", "2")
    try:
        data = os.urandom(FIVE_MIB)
        st, _ = srv.put("bigfive00001", data)
        check("PUT of a 5 MiB file: 204", st == 204, st)
        order = []
        sent = threading.Event()

        def big():
            r = srv.run(big_spec(["bigfive00001"], 63, data,
                                 "import time\ntime.sleep(3)\n"), sent=sent)
            order.append("big")
            return r

        t, out = in_thread(big)
        sent.wait(60)
        running = srv.wait_metric("pyward_runs_in_flight", 1)
        st_h, _ = srv.request("GET", "/healthz")
        order.append("healthz")
        st_s, res_s = srv.run({"sourcecode": "print(6 * 7)\n"})
        order.append("short")
        t.join()
        st_b, res_b = out[0]
        check("63 names of one 5 MiB file: every name holds the file's "
              "bytes (sizes and SHA-256 checked by the program)",
              st_b == 200 and res_b["outcome"] == 15 and
              res_b["stdout"] == "63\n", f"{st_b} {res_b}")
        check("while it runs, /healthz and a short Jobe run on other "
              "connections are answered first",
              running and order == ["healthz", "short", "big"] and
              st_h == 200 and st_s == 200 and res_s["outcome"] == 15 and
              res_s["stdout"] == "42\n", f"{order} {st_h} {st_s} {res_s}")

        st, res = srv.run(big_spec(["bigfive00001"], 64, data))
        check("64 files: 400, Jobe's invalid file_list, with the limit",
              st == 400 and res == "Invalid file_list: 64 files, more "
              "than this server takes (63)", f"{st} {res}")
        spec = big_spec(["bigfive00001"], 63, data)
        spec["file_list"][40][0] = "notcached0001"
        st, res = srv.run(spec)
        check("63 files, one of them not in the cache: Jobe's 404",
              st == 404 and res == "One or more of the specified files "
              "is missing/unavailable", f"{st} {res}")

        ids = ["bigfive%05d" % i for i in range(1, 14)]
        puts = [srv.put(i, data)[0] for i in ids[1:]]
        check("12 more 5 MiB files PUT", puts == [204] * 12, puts)
        st, res = srv.run(big_spec(ids, 13, data))
        check("13 distinct 5 MiB files: more than a run's workspace holds "
              "(64 MiB): 400 that says so",
              st == 400 and isinstance(res, str) and
              res.startswith("file_list: the files and the source take ") and
              "more than a run's workspace holds (67108864 bytes)" in res,
              f"{st} {res}")
        st, res = srv.run(big_spec(ids[:12], 24, data))
        check("12 distinct 5 MiB files named twice each fit (60 MiB)",
              st == 200 and res["outcome"] == 15 and
              res["stdout"] == "24\n", f"{st} {res}")
    finally:
        srv.stop()


def test_queued_memory():
    """Runs queued behind one another hold fds, not their files' bytes:
    the server's peak RSS stays within its base plus a bound
    (doc/DEPLOY.md)."""
    srv = Server("--max-concurrency", "1", "--max-queued", "8")
    try:
        data = os.urandom(FIVE_MIB)
        srv.put("queued000001", data)
        spec = big_spec(["queued000001"], 63, data,
                        "import time\ntime.sleep(1)\n")
        st, res = srv.run(spec)
        check("a warm-up run of 63 x 5 MiB", st == 200 and
              res["outcome"] == 15, f"{st} {res}")
        # The peak from here on (the PUT's decoding is behind).
        try:
            with open("/proc/%d/clear_refs" % srv.proc.pid, "w") as f:
                f.write("5")
            reset = True
        except OSError:
            reset = False
        base = srv.status("VmRSS")
        samples = [base]
        threads = [in_thread(srv.run, spec) for _ in range(5)]
        queued = srv.wait_metric("pyward_queue_depth", 4)
        while any(t.is_alive() for t, _ in threads):
            samples.append(srv.status("VmRSS"))
            threading.Event().wait(0.02)
        for t, _ in threads:
            t.join()
        peak = srv.status("VmHWM") if reset else max(samples)
        results = [out[0] for _, out in threads]
        check("five 63 x 5 MiB runs, four of them queued at once, all "
              "right", queued and all(r[0] == 200 and r[1]["outcome"] == 15
                                       and r[1]["stdout"] == "63\n"
                                       for r in results), results)
        check("their peak RSS in the server: within 16 MiB of its base "
              "(each would have held 315 MiB)",
              peak - base < 16 * 1024,
              f"base {base} kB, peak {peak} kB (reset: {reset})")
    finally:
        srv.stop()


def test_cache_cap():
    """--jobe-files-max: past it the least recently used file goes, never
    one a queued or running run holds; a PUT the held files leave no
    room for is refused, clearly."""
    srv = Server("--max-concurrency", "2", "--jobe-files-max", "12M")
    try:
        a, b, c, d = (os.urandom(FIVE_MIB) for _ in range(4))
        sts = [srv.put("capfilea0001", a)[0], srv.put("capfileb0001", b)[0]]
        check("two 5 MiB files PUT under a 12 MiB cap", sts == [204, 204],
              sts)
        t, out = in_thread(srv.run, big_spec(
            ["capfilea0001"], 1, a, "import time\ntime.sleep(3)\n"))
        running = srv.wait_metric("pyward_runs_in_flight", 1)
        st, res = srv.run(big_spec(["capfileb0001"], 1, b))
        check("a run uses b after a's run started: a is the least recently "
              "used", running and st == 200 and res["stdout"] == "1\n",
              f"{running} {st} {res}")
        st, _ = srv.put("capfilec0001", c)
        heads = [srv.request("HEAD", API + "/files/" + i)[0]
                 for i in ("capfilea0001", "capfileb0001", "capfilec0001")]
        check("a third file evicts b, not a, which a run holds",
              st == 204 and heads == [204, 404, 204], f"{st} {heads}")
        t.join()
        st, res = out[0]
        check("the run holding a read it whole", st == 200 and
              res["outcome"] == 15 and res["stdout"] == "1\n", f"{st} {res}")
        t, out = in_thread(srv.run, big_spec(
            ["capfilea0001", "capfilec0001"], 2, a,
            "import time\ntime.sleep(3)\n"))
        running = srv.wait_metric("pyward_runs_in_flight", 1)
        st, res = srv.put("capfiled0001", d)
        check("every file held: a PUT that cannot fit is 503, saying why",
              running and st == 503 and isinstance(res, str) and
              res.startswith("put: failed to write file capfiled0001 to "
                             "cache: the cache is full of files that runs "
                             "hold"), f"{st} {res}")
        t.join()
        st, _ = srv.put("capfiled0001", d)
        check("once the run is over, the PUT evicts and fits", st == 204, st)
    finally:
        srv.stop()


def test_queued_run_keeps_its_files():
    """A file is taken when its run is POSTed: a PUT of the same id by
    another client while the run waits in the queue does not change what
    it gets; later runs get the new file."""
    srv = Server("--max-concurrency", "1")
    try:
        srv.put("sharedid0001", b"first version")
        t1, _ = in_thread(srv.run, {
            "sourcecode": "import time\ntime.sleep(2)\n"})
        srv.wait_metric("pyward_runs_in_flight", 1)
        t2, out = in_thread(srv.run, {
            "sourcecode": "print(open('data').read())\n",
            "file_list": [["sharedid0001", "data"]]})
        queued = srv.wait_metric("pyward_queue_depth", 1)
        st, _ = srv.put("sharedid0001", b"second version")
        t1.join()
        t2.join()
        st2, res = out[0]
        check("a queued run keeps the file as it was when POSTed",
              queued and st == 204 and st2 == 200 and
              res["stdout"] == "first version\n", f"{queued} {st} {res}")
        expect_run(srv, "a later run gets the new file",
                   {"sourcecode": "print(open('data').read())\n",
                    "file_list": [["sharedid0001", "data"]]}, 15,
                   "second version\n")
    finally:
        srv.stop()


def test_open_files_cap():
    """The cached files runs hold open are capped (a quarter of the
    server's RLIMIT_NOFILE, here 256: 64): a run that would need more
    while others hold theirs is Jobe's overload, 21, saying why; once they
    are over it runs."""
    srv = Server("--max-concurrency", "2", nofile=256)
    try:
        ids = ["openfile%04d" % i for i in range(80)]
        puts = {srv.put(i, i.encode())[0] for i in ids}
        check("80 small files PUT", puts == {204}, puts)
        read_all = ("import time\ntime.sleep({})\n"
                    "print(sum(len(open('f%d' % i).read()) "
                    "for i in range({})))\n")
        t, out = in_thread(srv.run, {
            "sourcecode": read_all.format(3, 40),
            "file_list": [[ids[i], "f%d" % i] for i in range(40)]})
        running = srv.wait_metric("pyward_runs_in_flight", 1)
        spec = {"sourcecode": read_all.format(0, 40),
                "file_list": [[ids[40 + i], "f%d" % i] for i in range(40)]}
        st, res = srv.run(spec)
        check("40 files held by a run, 40 others asked: outcome 21",
              running and st == 200 and res["outcome"] == 21 and
              "cached files open" in res["stderr"], f"{st} {res}")
        t.join()
        st0, res0 = out[0]
        st, res = srv.run(spec)
        check("the first run read its 40; the second runs once it is over",
              st0 == 200 and res0["stdout"] == "480\n" and st == 200 and
              res["outcome"] == 15 and res["stdout"] == "480\n",
              f"{res0} {st} {res}")
    finally:
        srv.stop()


EIGHT_MIB = 8 << 20


def put_body(data, escape_slashes=False):
    """The body of a PUT of DATA, as CodeRunner's PHP sends it ("\/" for
    '/') with ESCAPE_SLASHES."""
    b64 = base64.b64encode(data).decode()
    if escape_slashes:
        b64 = b64.replace("/", "\\/")
    return ('{"file_contents": "%s"}' % b64).encode()


def open_put(srv, file_id, length, headers=None):
    """A PUT of FILE_ID with a body of LENGTH bytes, its headers sent: the
    connection, to send the body on."""
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=120)
    c.putrequest("PUT", API + "/files/" + file_id)
    h = {"Content-Type": "application/json", "Content-Length": str(length)}
    h.update(headers or {})
    for k, v in h.items():
        c.putheader(k, v)
    c.endheaders()
    return c


def answer_of(c):
    """The status and decoded body of C's answer."""
    r = c.getresponse()
    raw = r.read()
    c.close()
    return r.status, json.loads(raw) if raw else None


def send_slowly(c, body, piece=256 * 1024, pause=0.02, hold=None):
    """BODY on C in PIECEs, a PAUSE between them; the last piece once HOLD
    (an Event) is set."""
    for i in range(0, len(body), piece):
        if hold is not None and i + piece >= len(body):
            hold.wait(120)
        c.send(body[i:i + piece])
        threading.Event().wait(pause)


def temp_files(srv):
    """The temporary files of PUTs in the cache's folders: (name, size)."""
    out = []
    for folder in os.listdir(srv.files) if os.path.isdir(srv.files) else []:
        path = os.path.join(srv.files, folder)
        for n in os.listdir(path):
            if n.startswith("."):
                try:
                    out.append((n, os.stat(os.path.join(path, n)).st_size))
                except FileNotFoundError:
                    pass
    return out


def wait_for(cond):
    """Poll COND until it is true (True), or a minute went by (False)."""
    for _ in range(6000):
        if cond():
            return True
        threading.Event().wait(0.01)
    return False


def test_streamed_puts():
    """A PUT's body is decoded and written as it comes: K PUTs of 8 MiB
    sent slowly at once keep the server's RSS within a bound
    (doc/DEPLOY.md) where each used to hold its body and its bytes; /healthz
    and another client's run are answered while a PUT is still sending;
    the bytes stored are the bytes sent (a run prints their size and
    SHA-256), with "\/" escapes; a client that leaves mid-PUT leaves no
    temporary file."""
    d = tempfile.mkdtemp(prefix="pyward-jobe-keys-")
    keys = os.path.join(d, "keys")
    with open(keys, "w") as f:
        f.write("key-of-moodle-a\nkey-of-moodle-b\n")
    ka = {"X-API-KEY": "key-of-moodle-a"}
    kb = {"X-API-KEY": "key-of-moodle-b"}
    # --max-body as large as the bodies: a build that buffers them takes
    # them too (and holds them).
    # The idle timeout longer than any wait here: a client gone mid-PUT
    # is seen by the server's looks, not by the timeout.
    srv = Server("--jobe-keys", keys, "--max-body", "16m",
                 "--jobe-files-max", "512m", "--request-timeout", "120",
                 "--idle-timeout", "300")
    k = 4
    try:
        datas = [os.urandom(EIGHT_MIB) for _ in range(k)]
        bodies = [put_body(x, escape_slashes=True) for x in datas]
        st, _ = srv.request("PUT", API + "/files/warmup000001",
                            {"file_contents": "d2FybQ=="}, ka)
        st_w, res_w = srv.run({"sourcecode": "print(1)\n"}, headers=ka)
        check("a warm-up PUT and run", st == 204 and st_w == 200 and
              res_w["outcome"] == 15, f"{st} {st_w} {res_w}")
        try:
            with open("/proc/%d/clear_refs" % srv.proc.pid, "w") as f:
                f.write("5")
            reset = True
        except OSError:
            reset = False
        base = srv.status("VmRSS")
        samples = [base]
        conns = [open_put(srv, "streamed%04d" % i, len(bodies[i]), ka)
                 for i in range(k)]
        threads = [in_thread(send_slowly, conns[i], bodies[i])
                   for i in range(k)]
        growing = wait_for(lambda: len([s for _, s in temp_files(srv)
                                        if s > 0]) == k)
        while any(t.is_alive() for t, _ in threads):
            samples.append(srv.status("VmRSS"))
            threading.Event().wait(0.02)
        sts = [answer_of(c)[0] for c in conns]
        peak = srv.status("VmHWM") if reset else max(samples)
        check("%d PUTs of 8 MiB at once: each written to its temporary "
              "file while its body comes" % k, growing, temp_files(srv))
        check("%d PUTs of 8 MiB sent slowly at once: 204 each" % k,
              sts == [204] * k, sts)
        print("# base RSS %d kB, peak %d kB during the PUTs" % (base, peak))
        check("their peak RSS in the server: within 8 MiB of its base "
              "(each body and its bytes held: 19 MiB a PUT)",
              peak - base < 8 * 1024,
              f"base {base} kB, peak {peak} kB (reset: {reset})")
        for i in (0, k - 1):
            st, res = srv.run({"sourcecode": "import hashlib\n"
                               "d = open('f', 'rb').read()\n"
                               "print(len(d), hashlib.sha256(d).hexdigest())\n",
                               "file_list": [["streamed%04d" % i, "f"]],
                               "parameters": {"cputime": 20}}, headers=ka)
            want = "%d %s\n" % (EIGHT_MIB,
                                hashlib.sha256(datas[i]).hexdigest())
            check("file %d stored byte for byte (its size and SHA-256 "
                  "printed by a run)" % i, st == 200 and
                  res["outcome"] == 15 and res["stdout"] == want,
                  f"{st} {res}")
        check("no temporary file left", temp_files(srv) == [],
              temp_files(srv))

        # The order of answers: a PUT's last piece held back.
        hold = threading.Event()
        order = []
        c = open_put(srv, "ordered00001", len(bodies[0]), ka)

        def put():
            try:
                send_slowly(c, bodies[0], pause=0.005, hold=hold)
                r = answer_of(c)
            except OSError as e:
                r = (None, str(e))
            order.append("put")
            return r

        t, out = in_thread(put)
        started = wait_for(lambda: any(s > 0 for _, s in temp_files(srv)))
        st_h, _ = srv.request("GET", "/healthz")
        order.append("healthz")
        st_r, res_r = srv.run({"sourcecode": "print(6 * 7)\n"}, headers=kb)
        order.append("run")
        hold.set()
        t.join()
        st_p, _ = out[0]
        check("/healthz and another client's Jobe run answered while a "
              "client's 8 MiB PUT is still sending",
              started and order == ["healthz", "run", "put"] and
              st_h == 200 and st_r == 200 and res_r["outcome"] == 15 and
              res_r["stdout"] == "42\n" and st_p == 204,
              f"{order} {st_h} {st_r} {res_r} {st_p}")

        # A client that leaves mid-PUT.
        c = open_put(srv, "leaving00001", len(bodies[1]), ka)
        c.send(bodies[1][:len(bodies[1]) // 2])
        started = wait_for(lambda: any(s > 0 for _, s in temp_files(srv)))
        c.close()
        gone = wait_for(lambda: temp_files(srv) == [])
        head, _ = srv.request("HEAD", API + "/files/leaving00001",
                              headers=ka)
        check("a client that leaves mid-PUT: its temporary file goes "
              "before the idle timeout, no file stored",
              started and gone and head == 404,
              f"{started} {gone} {head} {temp_files(srv)}")
    finally:
        srv.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_file_attacks(srv):
    """What a client or a program could try on the support files: names
    and ids that leave the workspace or the cache, odd files planted in
    the cache directory, a program writing into its files or the cache."""
    fid = "attackfile01"
    original = b"the cached bytes\n"
    srv.put(fid, original)
    names = ["../x", "/etc/passwd", "a/b", ".", "..", "x" * 129, "a b",
             "-\\x", "é"]
    for name in names:
        st, res = srv.run({"sourcecode": "print(1)\n",
                           "file_list": [[fid, name]]})
        check(f"a support file named {name[:20]!r}: 400",
              st == 400 and str(res).startswith("Invalid file specifier"),
              f"{st} {res}")
    for bad_id in ("../../etc/passwd", "/etc/passwd", "a" * 65, "short"):
        st, res = srv.run({"sourcecode": "print(1)\n",
                           "file_list": [[bad_id, "x"]]})
        check(f"a file id {bad_id[:20]!r}: 400",
              st == 400 and str(res).startswith("Invalid file specifier"),
              f"{st} {res}")
    raw = ('{"run_spec": {"language_id": "python3", "sourcecode": '
           '"print(1)", "file_list": [["%s", "a\\u0000b"]]}}' % fid).encode()
    st, res = srv.request("POST", API + "/runs", raw_body=raw)
    check("a name with a NUL: 400", st == 400, f"{st} {res}")
    # The client's folder of the cache: this test's address's own.
    folders = os.listdir(srv.files)
    check("the cache holds one folder, this client's", len(folders) == 1,
          folders)
    mine = os.path.join(srv.files, folders[0])
    os.symlink("/etc/passwd", os.path.join(mine, "plantedlink1"))
    os.mkfifo(os.path.join(mine, "plantedfifo1"))
    os.mkdir(os.path.join(mine, "planteddir01"))
    for planted in ("plantedlink1", "plantedfifo1", "planteddir01"):
        st, res = srv.run({"sourcecode": "print(open('x').read())\n",
                           "file_list": [[planted, "x"]]})
        head, _ = srv.request("HEAD", API + "/files/" + planted)
        check(f"{planted} planted in the cache directory is no file of the "
              "cache: 404", st == 404 and head == 404, f"{st} {res} {head}")
    st, _ = srv.request("GET", "/healthz")
    check("the server still answers (a FIFO did not hold it up)", st == 200,
          st)
    cached = os.path.join(mine, fid)
    prog = ("with open('f', 'r+b') as f:\n"
            "    f.write(b'OVERWRITTEN')\n"
            "print(open('f', 'rb').read(11))\n"
            "for p in [%r, %r, %r]:\n"
            "    for mode in ('rb', 'r+b', 'wb'):\n"
            "        try:\n"
            "            open(p, mode)\n"
            "            print('opened', p, mode)\n"
            "        except Exception as e:\n"
            "            pass\n"
            "print('done')\n") % (
                cached, "../" * 12 + cached.lstrip("/"),
                "/proc/1/root" + cached)
    expect_run(srv, "a program writes its own copy of a support file, and "
               "cannot open the cache's file (by path, '..' or /proc)",
               {"sourcecode": prog, "file_list": [[fid, "f"]]}, 15,
               "b'OVERWRITTEN'\ndone\n")
    with open(cached, "rb") as f:
        on_disk = f.read()
    check("the cached file is unchanged on the host", on_disk == original,
          on_disk)
    expect_run(srv, "the next run gets the cached bytes",
               {"sourcecode": "print(open('f').read(), end='')\n",
                "file_list": [[fid, "f"]]}, 15, original.decode())


def mcp_run(srv, code):
    """(status, stdout) of an execute_code of CODE over /mcp."""
    st, res = srv.request("POST", "/mcp", {
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "execute_code", "arguments": {"code": code}}},
        {"Accept": "application/json, text/event-stream"})
    sc = (res or {}).get("result", {}).get("structuredContent", {}) \
        if isinstance(res, dict) else {}
    return st, sc.get("stdout")


def test_fair_check():
    """A run of a 300 KB program that the validator refuses, once the
    server has read it, does not hold up the others: /healthz and
    another client's short execute_code sent then are answered before
    it (the order of the answers is checked, not their times), and its
    answer is the one a short program gets: outcome 11 in plain words.
    Then a validator process killed mid-check, and a client gone
    mid-check (the server's info log says it dropped the run)."""
    srv = Server("--log-level", "info")
    try:
        big = big_program()
        bad = big + "\nimport os\n"
        srv.run({"sourcecode": "print(0)\n"})
        done, answers = [], {}
        lock = threading.Lock()
        sent = threading.Event()

        def one(name, fn, *args, **kw):
            r = fn(*args, **kw)
            with lock:
                done.append(name)
                answers[name] = r

        t, _ = in_thread(one, "jobe", srv.run, {"sourcecode": bad},
                         sent=sent)
        sent.wait(60)
        for _ in range(3000):
            if all_read(srv.port):
                break
            threading.Event().wait(0.02)
        others = [in_thread(one, "healthz", srv.request, "GET",
                            "/healthz")[0],
                  in_thread(one, "short", mcp_run, srv, "print(6*7)")[0]]
        for x in others + [t]:
            x.join(120)
        line = big.count("\n") + 2
        st, res = answers.get("jobe", (None, None))
        check("Jobe: /healthz and another client's execute_code sent while a "
              "300 KB program is checked are answered before its run",
              done[-1:] == ["jobe"] and len(done) == 3 and
              answers["healthz"][0] == 200 and
              answers["short"] == (200, "42\n"), (done, answers.get("short")))
        check("Jobe: that 300 KB program importing os: outcome 11, its "
              "cmpinfo in plain words on its last line",
              st == 200 and res.get("outcome") == 11 and
              res.get("cmpinfo") == "test.py:%d: this course's sandbox does "
              "not allow importing 'os'\n" % line and
              res.get("stdout") == "" and not jargon_in(res), (st, res))
        expect_run(srv, "Jobe: a 300 KB program the validator accepts runs "
                   "(15)", {"sourcecode": big}, 15, "big\n")
        # Its validator process killed while it checks a run's program:
        # outcome 20, never a run; the next run gets a new process.
        got = {}
        runner = threading.Thread(
            target=lambda: got.update(r=srv.run({"sourcecode": big})))
        busy, vprocs = busy_vproc(srv.proc.pid, runner)
        if busy is not None:
            os.kill(busy, 9)
        runner.join(120)
        st, res = got.get("r", (None, None))
        check("Jobe: a validator process killed while it checks a run's "
              "program: outcome 20, that the server could not check it, "
              "nothing run",
              busy is not None and st == 200 and
              res.get("outcome") == 20 and res.get("stdout") == "" and
              "could not check" in res.get("stderr", ""),
              (busy, vprocs, st, res))
        expect_run(srv, "Jobe: the next 300 KB program is checked by a new "
                   "validator process and runs (15)", {"sourcecode": big},
                   15, "big\n")
        # A client gone while its program is checked: its run dropped
        # (the check's answer thrown away), the next one answered.
        body = json.dumps({"run_spec": {"language_id": "python3",
                                        "sourcecode": big}}).encode()
        sock = socket.create_connection(("127.0.0.1", srv.port))
        head = ("POST %s/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\nContent-Length: %d"
                "\r\n\r\n" % (API, len(body))).encode()
        sender = threading.Thread(target=sock.sendall, args=(head + body,))
        busy, _ = busy_vproc(srv.proc.pid, sender)
        sender.join(60)
        sock.close()
        dropped = False
        for _ in range(3000):
            dropped = any("dropped: its client is gone" in line
                          for line in list(srv.err))
            if dropped:
                break
            threading.Event().wait(0.01)
        check("Jobe: a client gone while its program is checked: its run is "
              "dropped", busy is not None and dropped, (busy, srv.err[-5:]))
        expect_run(srv, "Jobe: the run after it is answered (15)",
                   {"sourcecode": big}, 15, "big\n")
    finally:
        srv.stop()


def main():
    srv = Server()
    try:
        test_languages(srv)
        test_outcomes(srv)
        test_plain_words(srv)
        test_program_features(srv)
        test_files(srv)
        test_bad_specs(srv)
        test_file_attacks(srv)
    finally:
        srv.stop()
    test_operator_profiles()
    test_private_cache()
    test_key_quotas()
    test_keys()
    test_tokens()
    test_overload()
    test_big_files()
    test_queued_memory()
    test_cache_cap()
    test_queued_run_keeps_its_files()
    test_open_files_cap()
    test_fair_check()
    test_streamed_puts()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
