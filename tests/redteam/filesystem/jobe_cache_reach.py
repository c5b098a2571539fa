# category: filesystem
# attack: reach the Jobe API's file cache from a run under the jobe profile (the default --jobe-files directory of the server's user, $TMPDIR/pyward-jobe-files-UID): list it, read a cached file, plant a file or a temporary file under an id's name, or squat the directory's path with a file of its own (the server would refuse to start), by absolute path and by '..' steps
# profile: basic jobe
# stdout: done
got = []
dirs = []
for tmp in ("/tmp", "/var/tmp", "/dev/shm"):
    for uid in (0, 1000, 65534):
        d = "%s/pyward-jobe-files-%d" % (tmp, uid)
        dirs += [d, "../" * 12 + d[1:], "./" + "../" * 12 + d[1:]]
for d in dirs:
    for name in ("", "/", "/plantedbyrun1", "/.plantedbyrun1.tmp"):
        for mode in ("r", "rb", "w", "a", "x"):
            try:
                with open(d + name, mode) as f:
                    got.append("%s %s" % (d + name, mode))
                    if "r" in mode:
                        got.append(repr(f.read(64)))
            except Exception:  # noqa: BLE001 - every refusal is fine
                pass
for g in got:
    print("@LEAK@", g)
print("done")
