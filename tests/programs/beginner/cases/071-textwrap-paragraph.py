import textwrap

paragraph = ("Python is a programming language that lets you work quickly and "
             "integrate systems more effectively. It is easy to learn and fun to use.")
for line in textwrap.wrap(paragraph, width=30):
    print("|" + line.ljust(30) + "|")
print(textwrap.shorten(paragraph, width=40, placeholder="..."))
print(textwrap.indent("one\ntwo", "> "))
