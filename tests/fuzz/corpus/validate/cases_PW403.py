try:
    f()
except* ValueError:  # error
    pass
