def compress(text):
    if not text:
        return ""
    out = []
    run_char = text[0]
    run_len = 1
    for ch in text[1:]:
        if ch == run_char:
            run_len += 1
        else:
            out.append(f"{run_char}{run_len}")
            run_char, run_len = ch, 1
    out.append(f"{run_char}{run_len}")
    return "".join(out)


for s in ["aaabbbcccd", "abc", "zzzzzzzzzz", ""]:
    print(repr(s), "->", repr(compress(s)))
