# category: processes
# attack: webbrowser.open spawns a browser
# profile: basic
import webbrowser
webbrowser.open("http://127.0.0.1:@PORT@/")
