def shift_char(ch, k):
    if ch.isupper():
        return chr((ord(ch) - ord("A") + k) % 26 + ord("A"))
    if ch.islower():
        return chr((ord(ch) - ord("a") + k) % 26 + ord("a"))
    return ch


def caesar(text, k):
    return "".join(shift_char(c, k) for c in text)


secret = caesar("Hello, World!", 3)
print(secret)
print(caesar(secret, -3))
