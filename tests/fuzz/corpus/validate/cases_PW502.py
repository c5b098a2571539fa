view__roles__ = ()  # error
_x__roles__ = 1  # PW501 only (first rule wins)
