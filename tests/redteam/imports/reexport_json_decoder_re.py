# category: imports
# attack: json.decoder.re and json.scanner internals
# profile: basic
import json
print(json.decoder.re, json.scanner)
print(json.decoder.re.sre_compile)
