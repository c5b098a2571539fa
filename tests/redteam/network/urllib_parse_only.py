# category: network
# attack: urllib.parse is allowed: build a URL and try urllib.request through it
# profile: basic
import urllib.parse
u = urllib.parse.urlparse("http://127.0.0.1:@PORT@/")
print(urllib.request.urlopen(u.geturl()))
