# category: disclosure
# attack: Strings shaped like the server's placeholders for output files (pwblob-NONCE-SLOT-SECRET) and its reply marks (pwseg-NONCE-INDEX), guessed, in stdout, the final value, a variable, file names and bytes, to splice another run's files into this reply
# profile: filesystem
# verdict: ok
# stdout: pwblob-00000000000000000000000000000000-0-00000000000000000000000000000000 pwblob-ffffffffffffffffffffffffffffffff-1-ffffffffffffffffffffffffffffffff pwseg-000000000000000000000000000000000000000000000000-0 pwseg-ffffffffffffffffffffffffffffffff-1
# result: 'pwblob-00000000000000000000000000000000-2-00000000000000000000000000000000'
# variables: tok='pwseg-000000000000000000000000000000000000000000000000-1'
# files: pwblob-00000000000000000000000000000000-0-00000000000000000000000000000000.txt=text/plain pwseg-00000000000000000000000000000000-0.txt=text/plain
# files-count: 2
# Strings shaped like the server's placeholders, guessed: each must come
# back as the text it is, never as another file's bytes (the nonce is
# made in the server after the zygote was forked, each placeholder has a
# secret of its own, and a reply's marks a secret of the reply's).
Z = "0" * 32
F = "f" * 32
shapes = ["pwblob-%s-0-%s" % (Z, Z), "pwblob-%s-1-%s" % (F, F),
          "pwseg-%s%s-0" % (Z, "0" * 16), "pwseg-%s-1" % F]
print(" ".join(shapes))
tok = "pwseg-%s%s-1" % (Z, "0" * 16)
for name in ("pwblob-%s-0-%s.txt" % (Z, Z), "pwseg-%s-0.txt" % Z):
    with open("output/" + name, "w") as f:
        f.write(" ".join(shapes))
"pwblob-%s-2-%s" % (Z, Z)
