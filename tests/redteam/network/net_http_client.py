# category: network
# attack: http.client.HTTPConnection("127.0.0.1", @PORT@).request("GET", "/")
# profile: basic
# verdict: error rejected
import http.client
http.client.HTTPConnection("127.0.0.1", @PORT@).request("GET", "/")
