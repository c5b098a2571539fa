# expect: error
# check: noconn
import http.client
http.client.HTTPConnection("127.0.0.1", @PORT@).request("GET", "/")
