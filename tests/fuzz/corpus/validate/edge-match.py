match x:
    case {"a": [1, *rest]} if rest: pass
    case Point(x=0) | None: pass
    case _: pass
