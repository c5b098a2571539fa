def describe(status):
    match status:
        case 200:
            return "OK"
        case 301 | 302:
            return "Redirect"
        case 404:
            return "Not Found"
        case code if 500 <= code < 600:
            return "Server Error"
        case _:
            return "Unknown"


for s in [200, 302, 404, 503, 418]:
    print(s, describe(s))
