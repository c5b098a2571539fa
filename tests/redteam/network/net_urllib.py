# category: network
# attack: urllib.request.urlopen("http://127.0.0.1:@PORT@/")
# profile: basic
# verdict: error rejected
import urllib.request
urllib.request.urlopen("http://127.0.0.1:@PORT@/")
