# SPDX-License-Identifier: Apache-2.0
# errors.py - the program's error as python3 prints it (trusted code):
# the traceback of the program's own frames (no frame of the sandbox),
# 3.11's carets from the submitted source, "[Previous line repeated N more
# times]", chained exceptions and notes, and the "Did you mean" suggestion
# CPython 3.11 computes in its own exception printing (Python/
# suggestions.c), which traceback.TracebackException does not do.

import builtins as _b
import linecache
import traceback

from pyward_guard.common import USER_FILE, _real_getattr, _real_type, str_or


# Python/suggestions.c
SUGGEST_MAX_ITEMS = 750
SUGGEST_MAX_SIZE = 40
MOVE_COST = 2
CASE_COST = 1
# A traceback longer than this keeps its head and its tail (the report's
# strings are capped by the server).
TRACEBACK_MAX = 16000


def register_source(text):
    """Give linecache the program's lines under its filename, as python3
    reads them from the file (universal newlines): the traceback's source
    lines and carets come from the code that ran, never from a file."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = [s + "\n" for s in lines]
    linecache.cache[USER_FILE] = (len(text), None, lines, USER_FILE)
    return lines


def levenshtein(a, b, max_cost):
    """suggestions.c's distance between the UTF-8 bytes of A and B."""
    a, b = a.encode("utf-8", "surrogatepass"), b.encode(
        "utf-8", "surrogatepass")
    if a == b:
        return 0
    pre = 0
    while pre < len(a) and pre < len(b) and a[pre] == b[pre]:
        pre += 1
    a, b = a[pre:], b[pre:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    if not a or not b:
        return (len(a) + len(b)) * MOVE_COST
    if len(a) > SUGGEST_MAX_SIZE or len(b) > SUGGEST_MAX_SIZE:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * MOVE_COST > max_cost:
        return max_cost + 1
    row = [(i + 1) * MOVE_COST for i in range(len(a))]
    result = 0
    for bi, code in enumerate(b):
        distance = result = bi * MOVE_COST
        minimum = None
        for i, ca in enumerate(a):
            substitute = distance + byte_cost(code, ca)
            distance = row[i]
            result = min(min(result, distance) + MOVE_COST, substitute)
            row[i] = result
            if minimum is None or result < minimum:
                minimum = result
        if minimum > max_cost:
            return max_cost + 1
    return result


def byte_cost(a, b):
    if (a & 31) != (b & 31):
        return MOVE_COST
    if a == b:
        return 0
    la = a + 32 if 65 <= a <= 90 else a
    lb = b + 32 if 65 <= b <= 90 else b
    return CASE_COST if la == lb else MOVE_COST


def closest(names, name):
    """calculate_suggestions(): the candidate nearest to NAME, or None."""
    if len(names) >= SUGGEST_MAX_ITEMS:
        return None
    best, best_dist = None, None
    nlen = len(name.encode("utf-8", "surrogatepass"))
    for item in names:
        if _real_type(item) is not str or item == name:
            continue
        ilen = len(item.encode("utf-8", "surrogatepass"))
        limit = (nlen + ilen + 3) * MOVE_COST // 6
        if best_dist is not None:
            limit = min(limit, best_dist - 1)
        d = levenshtein(name, item, limit)
        if d > limit:
            continue
        if best is None or d < best_dist:
            best, best_dist = item, d
    return best


def visible(names):
    # The sandbox's own names ("$getattr", "$result") are not the
    # program's: python3 would not know them.
    return [n for n in names if not (_real_type(n) is str and
                                     n.startswith("$"))]


def name_candidates(e):
    """The lists suggestions.c searches for a NameError, in its order:
    the names of the innermost frame's code, its globals, the builtins
    (python3's: the sandbox's replacements are the same names)."""
    tb = e.__traceback__
    if tb is None:
        return []
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    co = frame.f_code
    if co.co_filename != USER_FILE:
        return []  # only the program's own names are offered
    local = list(co.co_varnames) + [
        n for n in co.co_cellvars if n not in co.co_varnames] + list(
        co.co_freevars)
    return [visible(local), visible(list(frame.f_globals)), dir(_b)]


def suggestion(e):
    """The name CPython 3.11 would offer after "Did you mean", or None."""
    try:
        name = e.name
        if _real_type(name) is not str:
            return None
        if isinstance(e, AttributeError):
            obj = e.obj
            return None if obj is None else closest(visible(dir(obj)), name)
        if isinstance(e, NameError):
            for names in name_candidates(e):
                found = closest(names, name)
                if found is not None:
                    return found
    except BaseException:  # noqa: B036 - a user __dir__ may raise
        pass
    return None


class LibraryFrames(traceback.StackSummary):
    """The frames of an exception raised and caught in library code (a
    pandas KeyError chained to the one the program sees): the text leaves
    them out, as every library frame, but keeps the "Traceback (most
    recent call last):" line python3 prints above them."""

    def format(self):
        return []


def own_frames(te, e, seen, chained=False):
    """Keep only the program's frames in TE and the exceptions chained to
    it (E is TE's exception; CHAINED: TE is one of those), and add the
    suggestions."""
    if te is None or e is None or id(te) in seen:
        return
    seen.add(id(te))
    own = [f for f in te.stack if f.filename == USER_FILE]
    if own or not te.stack or not chained:
        te.stack = traceback.StackSummary.from_list(own)
    else:
        hidden = LibraryFrames()
        hidden.extend(te.stack)
        te.stack = hidden
    if isinstance(e, (NameError, AttributeError)):
        hint = suggestion(e)
        if hint is not None:
            te._str += f". Did you mean: '{hint}'?"
    own_frames(te.__cause__, e.__cause__, seen, True)
    own_frames(te.__context__, e.__context__, seen, True)
    for sub_te, sub in zip(te.exceptions or (),
                           _real_getattr(e, "exceptions", None) or ()):
        own_frames(sub_te, sub, seen, True)


def source_text(e):
    """A SyntaxError from the compiler (not the parser) of a program
    compiled from its tree has no source line: python3 reads it from the
    file."""
    if isinstance(e, SyntaxError) and e.text is None and \
            e.filename == USER_FILE and isinstance(e.lineno, int):
        lines = linecache.cache.get(USER_FILE, (0, 0, []))[2]
        if 0 < e.lineno <= len(lines):
            e.text = lines[e.lineno - 1]


def syntax_location(e):
    """The "File" line, the source line and the carets CPython 3.11's own
    printing gives a SyntaxError (Python/pythonrun.c, which differs from
    traceback.py: only an exact SyntaxError has an end, the offsets count
    UTF-8 bytes, leading tabs are stripped too), or None when it would
    print the exception as any other."""
    lineno, offset = e.lineno, e.offset
    if _real_type(lineno) is not int:
        return None
    offset = offset if _real_type(offset) is int else -1
    end_line, end = lineno, -1
    if _real_type(e) is SyntaxError:
        end_line = e.end_lineno if _real_type(e.end_lineno) is int \
            else lineno
        end = e.end_offset if _real_type(e.end_offset) is int else -1
    filename = e.filename if e.filename is not None else "<string>"
    out = [f'  File "{filename}", line {lineno}\n']
    text = e.text
    if _real_type(text) is not str:
        return out
    data = text.encode("utf-8", "surrogatepass")
    if end_line > lineno:
        end = len(data)
    end = min(end, len(data) + 1)
    return out + error_text(data, offset, end)


def error_text(data, offset, end):
    """The source line and its carets, as print_error_text() writes them
    (byte offsets, 1-based)."""
    carets = end - offset if end > 0 and end > offset else 1
    offset -= 1
    stripped = data.lstrip(b" \t\f")
    offset -= len(data) - len(stripped)
    data = stripped
    size = len(data) - (1 if data.endswith(b"\n") else 0)
    offset = min(offset, size)
    while True:
        nl = data.find(b"\n")
        if nl < 0 or nl >= offset:
            break
        data, size, offset = data[nl + 1:], size - nl - 1, offset - nl - 1
    line = data.decode("utf-8", "surrogateescape")
    if data[size:size + 1] != b"\n":
        line += "\n"
    out = ["    " + line]
    if offset >= 0:
        out.append("    " + " " * offset + "^" * carets + "\n")
    return out


def trim(text):
    if len(text) <= TRACEBACK_MAX:
        return text
    head = text[:TRACEBACK_MAX // 4].rpartition("\n")[0]
    tail = text[-(TRACEBACK_MAX * 3 // 4):].partition("\n")[2]
    return head + "\n  [... traceback shortened ...]\n" + tail


def in_guard(e):
    """The innermost frame of E is the guard's own (the file the guard
    was compiled from, src/sandbox/interp/guard.c)."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and \
        tb.tb_frame.f_code.co_filename == in_guard.__code__.co_filename


def format_error(e):
    """(traceback text, final message, line) of E as python3 prints it."""
    source_text(e)
    te = traceback.TracebackException(_real_type(e), e, e.__traceback__,
                                      lookup_lines=False, compact=True)
    own_frames(te, e, set())
    if isinstance(e, RecursionError) and in_guard(e):
        # The limit was hit in the guard's attribute read before the
        # program's next call: python3 hits it in that call.
        te._str = "maximum recursion depth exceeded"
    where = syntax_location(e) if isinstance(e, SyntaxError) else None
    if where is None:
        text = "".join(te.format())
    else:
        head = ["Traceback (most recent call last):\n"] + list(
            te.stack.format()) if te.stack else []
        te._str = "" if e.msg is None else str_or(e.msg)
        text = "".join(head + where) + (
            f"{te.exc_type.__name__}: {te._str}\n" if te._str else
            f"{te.exc_type.__name__}\n")
    line = te.stack[-1].lineno if te.stack else None
    if isinstance(e, SyntaxError):
        line = e.lineno
    return trim(text), te._str, line
