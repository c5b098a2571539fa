# attack: bind a caught exception to print
try:
    pass
except Exception as print:
    pass
