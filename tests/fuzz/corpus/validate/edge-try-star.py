try:
    pass
except* ValueError as e:
    raise
finally:
    pass
