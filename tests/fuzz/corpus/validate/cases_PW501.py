_total = 0  # error
_ = 1  # ok: exactly '_'
if __name__ == '__main__':  # error in restricted
    pass
