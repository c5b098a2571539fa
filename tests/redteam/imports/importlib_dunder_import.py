# category: imports
# attack: __import__("os").system("id")
# profile: basic
# verdict: error rejected
__import__("os").system("id")
