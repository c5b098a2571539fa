# attack: except* with a hand-built exception group
try:
    pass
except* (TypeError, ValueError):
    pass
