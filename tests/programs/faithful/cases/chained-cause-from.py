# faithful: full
def load(text):
    return {"a": 1}[text]


def setting(name):
    try:
        return load(name)
    except KeyError as e:
        raise ValueError(f"no setting {name!r}") from e


setting("b")
