# SPDX-License-Identifier: Apache-2.0
# bigprog.py - the long program the drivers send to see that a long
# check does not hold up the server's loop: about SIZE bytes of dense
# expressions (their validation takes the validator a good part of a
# second on this kind of host), printing "big".  Imported by the Python
# drivers; run as `python3 bigprog.py [SIZE]` it writes the program to
# stdout (for tests/mcp/queue.mjs).

import sys


def big_program(size=300000):
    """About SIZE bytes of dense expressions, then print('big')."""
    lines = ["a = b = x = y = p = q = 0", "c = [0] * 7", "f = lambda *a: 0"]
    n, i = 0, 0
    while n < size:
        line = "v%d = (a + b * %d - c[%d]) * f(x, y, %d) if p else q" % (
            i % 97, i, i % 7, i)
        lines.append(line)
        n += len(line) + 1
        i += 1
    lines.append("print('big')")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(big_program(int(sys.argv[1]) if len(sys.argv) > 1
                                 else 300000))
