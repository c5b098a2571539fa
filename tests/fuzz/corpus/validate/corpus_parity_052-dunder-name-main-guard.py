# parity: __name__ starts with _; default accepts the main guard (SPEC §4) (RESTRICTEDPYTHON.md §3.2)
# restricted: reject
# default: accept
def main():
    pass


if __name__ == "__main__":
    main()
