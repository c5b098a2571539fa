# attack: import modules dynamically through importlib
import importlib

importlib.import_module("os").system("echo escaped")
