def is_palindrome(text):
    cleaned = ""
    for ch in text.lower():
        if ch.isalnum():
            cleaned += ch
    return cleaned == cleaned[::-1]


phrases = ["racecar", "A man, a plan, a canal: Panama", "hello", "Was it a car or a cat I saw?"]
for p in phrases:
    print(f"{p!r} -> {is_palindrome(p)}")
