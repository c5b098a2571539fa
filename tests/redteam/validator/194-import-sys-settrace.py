# attack: install a trace hook to watch the guard functions
from sys import settrace

settrace(print)
