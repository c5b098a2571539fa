# category: processes
# attack: pty.spawn a shell
# profile: basic
import pty
pty.spawn("/bin/sh")
