# category: imports
# attack: codecs.open on the secret
# profile: basic
import codecs
print(codecs.open("@SECRET_FILE@").read())
