try:
    f()
except* ValueError:  # error: PW401 covers it in restricted
    pass
