# category: filesystem
# attack: the jobe profile's open() on the secret, /etc/passwd, /proc, an fd, '..' steps and absolute paths outside the workspace, for reading and writing
# profile: basic jobe
got = []
for path in ("@SECRET_FILE@", "/etc/passwd", "/etc/shadow",
             "/proc/self/environ", "/proc/1/environ", "/proc/self/maps",
             "../" * 12 + "@SECRET_FILE@"[1:], "./../../etc/passwd",
             b"/etc/passwd", 0, 3):
    try:
        with open(path) as f:
            got.append(f.read(200))
    except Exception:  # noqa: BLE001 - every refusal is fine
        pass
for path in ("@OUTSIDE@", "../" * 12 + "@OUTSIDE@"[1:], "/tmp/@TOKEN@-open",
             "/dev/shm/@TOKEN@-open"):
    try:
        with open(path, "w") as f:
            f.write("x")
        got.append("wrote " + str(path))
    except Exception:  # noqa: BLE001
        pass
for g in got:
    print("@LEAK@", g)
