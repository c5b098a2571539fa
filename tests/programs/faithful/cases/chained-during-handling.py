# faithful: full
def parse(s):
    try:
        return int(s)
    except ValueError:
        return {}['missing']


parse('x')
