# attack: string.Formatter().vformat reading a generator frame's builtins
import string

g = (i for i in [0])
print(string.Formatter().vformat("{0.f_builtins}", [g.gi_frame], {}))
