# attack: spawn a shell on a pseudo-terminal
import pty

pty.spawn("/bin/sh")
