#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The compile stage is skipped for clean trees that cannot fail to compile.
# Programs built from the constructs CPython's compiler rejects, in many
# contexts, must get the same findings with the stage skipped and with it
# forced (PW_COMPILE_ALWAYS=1), and a compile-stage finding exactly when
# CPython's own compile() fails after a successful parse.  A rule set with
# no node rules lets every program reach the compile stage.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(tmpdir_new)
trap 'rm -rf "$tmp"' EXIT
py=${PYTHON3:-python3}
mkdir "$tmp/rules" "$tmp/src"
cp "$PYWARD_RULES_DIR/meta.json" "$tmp/rules/"

$py - "$tmp/src" >"$tmp/expect" <<'PYEOF'
import ast, itertools, sys
d = sys.argv[1]
stmts = [
    "__debug__ = 1", "x.__debug__ = 1", "f(__debug__=1)",
    "def __debug__(): pass", "class __debug__: pass", "import __debug__",
    "import a.__debug__", "import a as __debug__", "del __debug__",
    "for __debug__ in y: pass", "lambda __debug__: 1", "x = __debug__",
    "f(a=1, a=2)", "f(a=1, b=2, a=3)", "f(a=1, **k, a=2)", "f(a=1, b=2)",
    "class A(x=1, x=2): pass", "class A(B, metaclass=M): pass",
    "def f(a, a): pass", "def f(a, *, a): pass", "def f(a, *a): pass",
    "def f(a, **a): pass", "def f(a, /, a): pass", "lambda a, a: 1",
    "lambda *, a, **a: 1", "def f(a, b=1, *c, d, e=2, **g): pass",
    "return", "return 1", "break", "continue", "yield", "await x",
    "global x", "nonlocal x", "a, *b, *c = d", "*a, = b", "print(*a)",
    "[x async for x in y]", "[x for x in y]", "{k: v for k, v in y}",
    "[(yield) for x in y]", "[x := 1 for x in z]",
    "from __future__ import braces", "from a import *",
    "from __future__ import annotations", "from . import x",
    "from .. a import b as c, d", "from a import b as __debug__",
    "from a.__debug__ import b", "x = 1\nfrom __future__ import annotations",
    "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass",
    "match x:\n    case a:\n        pass\n    case b:\n        pass",
    "match x:\n    case [a, a]:\n        pass",
    "class A:\n    return 1", "def f():\n    return 1",
    "def f():\n    class A:\n        return 1",
    "for x in y:\n    pass\nelse:\n    break",
    "def f():\n    nonlocal x", "def f(a):\n    global a",
    "x += 1", "x[0] += 1", "del x[0]", "raise E", "assert x, 'm'",
    "print(f'{x!r:>{w}}')", "import os.path as p, sys",
]
wraps = [
    "{s}", "def w():\n{i}", "class W:\n{i}", "for w in v:\n{i}",
    "while w:\n{i}", "def w():\n    for z in v:\n{ii}",
    "async def w():\n{i}", "x = lambda: 0\n{s}",
]
def ind(s, n):
    return "\n".join(" " * n + l for l in s.split("\n"))
srcs = [w.format(s=s, i=ind(s, 4), ii=ind(s, 8))
        for s, w in itertools.product(stmts, wraps)]
for depth in range(17, 24):
    srcs.append("".join(" " * k + "for x%d in y:\n" % k
                        for k in range(depth)) + " " * depth + "pass")
for k in (100, 3000, 30000):
    srcs += ["x = " + "+".join(["a"] * k), "x = a" + ".b" * k,
             "x = a" + "[0]" * k, "x = " + "-" * k + "1"]
for n, src in enumerate(srcs):
    path = "%s/p%04d.py" % (d, n)
    with open(path, "w") as f:
        f.write(src + "\n")
    try:
        ast.parse(src)
    except (SyntaxError, RecursionError, MemoryError):
        continue
    try:
        compile(src, path, "exec")
        verdict = "clean"
    except SyntaxError:
        verdict = "PW002"
    except (RecursionError, MemoryError):
        verdict = "PW003"
    print("p%04d.py %s" % (n, verdict))
PYEOF
if [ ! -s "$tmp/expect" ]; then
    not_ok "generate programs" "$(cat "$tmp/expect")"
    done_testing
fi
ok "generate $(wc -l <"$tmp/expect") programs that parse"

for rules in "$tmp/rules" default restricted; do
    name=$(basename "$rules")
    [ "$rules" = "$tmp/rules" ] && name=meta-only
    "$PYWARD" check --rules "$rules" "$tmp/src" >"$tmp/gated" 2>&1
    PW_COMPILE_ALWAYS=1 "$PYWARD" check --rules "$rules" "$tmp/src" \
        >"$tmp/always" 2>&1
    if cmp -s "$tmp/gated" "$tmp/always"; then
        ok "$name rules: same findings with the compile stage forced"
    else
        not_ok "$name rules: same findings with the compile stage forced" \
            "$(diff "$tmp/always" "$tmp/gated" | head -20)"
    fi
done

# Without node rules: a compile-stage finding exactly when compile() fails.
"$PYWARD" check --rules "$tmp/rules" "$tmp/src" >"$tmp/out" 2>&1
bad=
while read -r file verdict; do
    got=$(grep -o "^[^:]*/$file:[0-9]*:[0-9]*: PW00[23]" "$tmp/out" |
        sed 's/.* //' | sort -u | tr '\n' ' ')
    want=
    [ "$verdict" = clean ] || want="$verdict "
    [ "$got" = "$want" ] || bad="$bad$file: want '$want' got '$got'
"
done <"$tmp/expect"
if [ -z "$bad" ]; then
    ok "no node rules: compile-stage findings match CPython's compile()"
else
    not_ok "no node rules: compile-stage findings match CPython's compile()" \
        "$(printf '%s' "$bad" | head -20)"
fi
done_testing
