# SPDX-License-Identifier: Apache-2.0
"""`pyward run FILE` in a terminal behaves as `python3 FILE` does: each
program below runs under a pseudo-terminal (pty.fork: pyward is the
session leader, the terminal its controlling terminal), keys are typed
into it, and what the terminal shows and the exit status are checked.
The same programs run under python3 first, so each expectation is
python3's own behaviour, not only pyward's.

TAP on stdout, one point per check.  A read that never sees its text
gives up after READ_LIMIT seconds (a hang guard, not a timing check)."""

import os
import pty
import select
import signal
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module
import time

PYWARD = os.environ.get("PYWARD", "./pyward")
PYTHON3 = os.environ.get("PYTHON3", "python3")
READ_LIMIT = 60


class Term:
    """A command running in a new pseudo-terminal."""

    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                # As a shell starts a foreground job: Ctrl-C's signal at
                # its default, even when this driver was started in the
                # background with SIGINT ignored (python3 then installs
                # no KeyboardInterrupt handler).
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)
        self.seen = b""
        self.status = None

    def read_until(self, text):
        """Read until TEXT appears after what was already matched;
        returns whether it did."""
        end = time.monotonic() + READ_LIMIT
        want = text.encode()
        while want not in self.seen:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return False
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:  # EIO: the other side is closed
                return want in self.seen
            if not chunk:
                return want in self.seen
            self.seen += chunk
        return True

    def type(self, data):
        os.write(self.fd, data)

    def exited(self, wait):
        """Whether the command ended within WAIT seconds (reaped then)."""
        end = time.monotonic() + wait
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid != 0:
                self.status = status
                return True
            if time.monotonic() > end:
                return False
            time.sleep(0.02)

    def finish(self):
        """Read to the end; returns the exit status as a shell shows it.
        A command still there READ_LIMIT seconds later is killed (the
        test fails, it does not hang)."""
        self.read_until("\0never\0")
        if self.status is None and not self.exited(READ_LIMIT):
            os.kill(self.pid, signal.SIGKILL)
            self.exited(READ_LIMIT)
        status = self.status
        os.close(self.fd)
        if os.WIFSIGNALED(status):
            return 128 + os.WTERMSIG(status)
        return os.WEXITSTATUS(status)

    def text(self):
        return self.seen.decode("utf-8", "replace").replace("\r\n", "\n")


def write(tmp, name, src):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(src)
    return path


def both(path):
    """The commands under test: python3 itself, then pyward."""
    return [("python3", [PYTHON3, "-I", "-S", path]),
            ("pyward", [PYWARD, "run", path])]


PROMPT = 'name = input("Name? ")\nprint("hi", name)\n'
STREAM = 'print("first")\ninput()\nprint("second")\n'
EOF_KEY = ('try:\n    input()\nexcept EOFError:\n    print("got EOF")\n'
           'print("after")\n')
SPIN = 'print("ready")\nwhile True:\n    pass\n'
WAIT = 'print("ready")\ninput()\n'
CAUGHT = ('try:\n    print("ready")\n    input()\n'
          'except KeyboardInterrupt:\n    print("caught")\n')


def t_prompt(tmp):
    path = write(tmp, "prompt.py", PROMPT)
    for who, argv in both(path):
        t = Term(argv)
        shown = t.read_until("Name? ")
        point(shown, who + ": the input() prompt shows before the read",
              t.text())
        t.type(b"Ada\n")
        got = t.read_until("hi Ada")
        rc = t.finish()
        point(got and rc == 0, who + ": the typed line is the program's "
              "input (exit %d)" % rc, t.text())


def t_stream(tmp):
    path = write(tmp, "stream.py", STREAM)
    for who, argv in both(path):
        t = Term(argv)
        point(t.read_until("first"), who + ": output shows as it is "
              "printed, while the program waits", t.text())
        point("second" not in t.text(), who + ": and nothing after it yet",
              t.text())
        t.type(b"\n")
        got = t.read_until("second")
        rc = t.finish()
        point(got and rc == 0, who + ": the rest after the input (exit %d)"
              % rc, t.text())


def t_ctrl_d(tmp):
    path = write(tmp, "eof.py", EOF_KEY)
    for who, argv in both(path):
        t = Term(argv)
        t.type(b"\x04")  # typed ahead: the terminal keeps it for the read
        got = t.read_until("got EOF")
        rc = t.finish()
        point(got and "after" in t.text() and rc == 0,
              who + ": Ctrl-D is end of file (exit %d)" % rc, t.text())


def ctrl_c(argv):
    t = Term(argv)
    ready = t.read_until("ready")
    t.type(b"\x03")
    if not t.exited(5):
        # A key typed in the instant between the prompt and the read may
        # be lost by the terminal: a user would press it again.
        t.type(b"\x03")
    rc = t.finish()
    return ready, rc, t.text()


def t_ctrl_c(tmp):
    for name, src, what in (("spin.py", SPIN, "a busy loop"),
                            ("wait.py", WAIT, "a read")):
        path = write(tmp, name, src)
        for who, argv in both(path):
            ready, rc, text = ctrl_c(argv)
            point(ready and "KeyboardInterrupt" in text and rc == 130,
                  "%s: Ctrl-C in %s raises KeyboardInterrupt and ends it "
                  "with 130 (exit %d)" % (who, what, rc), text)
    path = write(tmp, "caught.py", CAUGHT)
    for who, argv in both(path):
        ready, rc, text = ctrl_c(argv)
        point(ready and "caught" in text and rc == 0,
              who + ": a program may catch KeyboardInterrupt (exit %d)" % rc,
              text)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for t in (t_prompt, t_stream, t_ctrl_d, t_ctrl_c):
            t(tmp)
    return plan()


if __name__ == "__main__":
    sys.exit(main())
