# category: disclosure
# attack: /etc/passwd and /etc/shadow
# profile: basic filesystem
import pathlib
for p in ("/etc/passwd", "/etc/shadow", "/root/.bash_history"):
    try:
        print(pathlib.Path(p).read_text())
    except Exception as e:
        print(repr(e)[:60])
