# category: processes
# attack: enumerate the host's processes through sched_getaffinity and prlimit on every pid (no /proc needed)
# profile: basic
# never: VISIBLE-PIDS
import os
seen = []
for pid in range(2, 5000):
    for probe in ("sched_getaffinity", "getpriority"):
        try:
            if probe == "sched_getaffinity":
                os.sched_getaffinity(pid)
            else:
                os.getpriority(os.PRIO_PROCESS, pid)
            seen.append(pid)
            break
        except Exception:
            pass
try:
    import resource
    for pid in range(2, 5000):
        try:
            resource.prlimit(pid, resource.RLIMIT_NOFILE)
            seen.append(pid)
        except Exception:
            pass
except Exception:
    pass
if seen:
    print("VISIBLE-PIDS", len(seen), seen[:10])
