# attack: mathematical bold letters NFKC-normalise to eval
print(𝐞𝐯𝐚𝐥("2 + 2"))
