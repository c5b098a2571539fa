# faithful: full
def ratio(a, b):
    return a / b


def report(rows):
    return [ratio(x, y) for x, y in rows]


def main():
    print(report([(1, 2), (3, 0)]))


main()
