small = {"a", "an", "the", "of", "and", "in", "on"}


def title_case(text):
    words = text.lower().split()
    out = []
    for i, w in enumerate(words):
        if i > 0 and w in small:
            out.append(w)
        else:
            out.append(w.capitalize())
    return " ".join(out)


print(title_case("the lord OF the rings"))
print(title_case("a tale of two cities"))
