# category: filesystem
# attack: xml.etree.ElementTree.parse opens the secret path
# profile: basic
import xml.etree.ElementTree as ET
print(ET.parse("@SECRET_FILE@"))
