message = "Mississippi river banks"
freq = {}
for ch in message.lower():
    if ch.isalpha():
        freq[ch] = freq.get(ch, 0) + 1
for ch in sorted(freq):
    print(ch, "*" * freq[ch])
