# attack: make a network request without the network profile
import urllib.request

urllib.request.urlopen("http://127.0.0.1:9/")
