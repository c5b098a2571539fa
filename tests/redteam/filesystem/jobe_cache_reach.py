# category: filesystem
# attack: reach the Jobe API's file cache from a run under the jobe profile (the server's own $TMPDIR/pyward-jobe-XXXXXX, a client's folder in it, or the fixed path pyward-jobe-files-UID of older servers): list /tmp to find it, read a cached file, plant a file or a temporary file under an id's name, or squat a path with a file of its own, by absolute path and by '..' steps
# profile: basic jobe
# stdout: done
got = []
dirs = []
for tmp in ("/tmp", "/var/tmp", "/dev/shm"):
    names = ["pyward-jobe-files-%d" % uid for uid in (0, 1000, 65534)]
    names += ["pyward-jobe-" + s for s in ("XXXXXX", "000000", "aaaaaa")]
    names += ["", "pyward-jobe-XXXXXX/0123456789abcdef"]
    for n in names:
        d = "%s/%s" % (tmp, n)
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
