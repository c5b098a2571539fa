# expect: error
__import__("os").system("id")
