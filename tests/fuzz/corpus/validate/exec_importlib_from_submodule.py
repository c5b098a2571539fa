# expect: error
from json import codecs
print(codecs)
