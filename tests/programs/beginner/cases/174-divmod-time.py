def format_duration(seconds):
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02}:{minutes:02}:{secs:02}"


for s in [59, 61, 3600, 3725, 86399]:
    print(s, "->", format_duration(s))
