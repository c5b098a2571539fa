# procs.py - the process table, for the Python test drivers (red team,
# soak) that check no process outlives its run.

import os


def proc_table():
    """{pid: (ppid, state)} of every process we can see."""
    table = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat", encoding="utf-8",
                      errors="replace") as f:
                rest = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        table[int(p)] = (int(rest[1]), rest[0])
    return table
