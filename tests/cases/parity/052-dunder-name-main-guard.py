# parity: __name__ starts with _; default accepts the main guard (see the default set in doc/pyward-rules.5) (RestrictedPython's name rule, check_name)
# restricted: reject
# default: accept
def main():
    pass


if __name__ == "__main__":
    main()
