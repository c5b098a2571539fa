# category: disclosure
# attack: Look for the output files of earlier runs, which the server keeps open until their replies are sent: through the fd links of every process /proc shows, and in the shared temporary directories
# profile: filesystem
# verdict: ok error rejected
# never: @LEAK@
# The server holds each sent output file by an open fd until its reply
# is written (its workspace already gone); a run is in namespaces of its
# own and must see none of them.
import os
seen = []
here = os.getcwd()
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        fds = os.listdir("/proc/%s/fd" % pid)
    except OSError:
        continue
    for fd in fds:
        try:
            target = os.readlink("/proc/%s/fd/%s" % (pid, fd))
        except OSError:
            continue
        if "output" in target and not target.startswith(here):
            seen.append(target)
for top in ("/tmp", "/var/tmp", "/dev/shm"):
    for root, dirs, files in os.walk(top):
        for name in files:
            if root.rstrip("/").endswith("/output"):
                seen.append(os.path.join(root, name))
if seen:
    print("@LEAK@", seen[:5])
print("looked")
