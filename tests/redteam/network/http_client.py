# category: network
# attack: http.client.HTTPConnection to the listener
# profile: basic
import http.client
c = http.client.HTTPConnection("127.0.0.1", @PORT@)
c.request("GET", "/")
