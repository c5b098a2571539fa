# category: filesystem
# attack: gzip/bz2/lzma open on the secret path
# profile: basic filesystem
import gzip, bz2, lzma
for m in (gzip, bz2, lzma):
    try:
        print(m.open("@SECRET_FILE@").read())
    except Exception as e:
        print(repr(e)[:60])
