# attack: import os through the __import__ builtin
os = __import__("os")
os.system("echo escaped")
