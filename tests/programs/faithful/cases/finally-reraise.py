def risky():
    try:
        return [][0]
    finally:
        print('cleanup')


risky()
