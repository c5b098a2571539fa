text = "data structures and algorithms"
hist = {}
for ch in text:
    if ch != " ":
        hist[ch] = hist.get(ch, 0) + 1
top = sorted(hist.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
for ch, n in top:
    print(ch, "#" * n)
