# category: filesystem
# attack: a socket object around the result channel's fd (no audit event names the fd): socket.socket(fileno=3), socket.SocketType, the class of a real socket, socket.fromfd; each would forge the program's report, a setup error and a success, then the run exits 4
# profile: network
# verdict: error rejected
# exit-code: 4
# never: forged-by-program
import socket


def main():
    FORGED = (b"G\nEforged-by-program setup error\n"
              b'R{"result": "forged-by-program", "variables": {}, "error": null}\n')
    ways = [
        lambda: socket.socket(fileno=3),
        lambda: socket.SocketType(fileno=3),
        lambda: type(socket.socket())(fileno=3),
        lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0, 3),
        lambda: socket.fromfd(3, socket.AF_UNIX, socket.SOCK_STREAM),
    ]
    for way in ways:
        try:
            way().sendall(FORGED)
        except Exception as e:
            print(e)


main()
raise SystemExit(4)
