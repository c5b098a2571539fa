# attack: open an HTTP connection without the network profile
import http.client

http.client.HTTPConnection("127.0.0.1", 9).connect()
