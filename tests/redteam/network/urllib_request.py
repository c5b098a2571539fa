# category: network
# attack: urllib.request.urlopen the listener
# profile: basic
import urllib.request
print(urllib.request.urlopen("http://127.0.0.1:@PORT@/").read())
