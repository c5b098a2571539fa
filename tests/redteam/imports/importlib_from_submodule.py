# category: imports
# attack: print(codecs)
# profile: basic
# verdict: error rejected
from json import codecs
print(codecs)
