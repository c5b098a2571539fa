# category: filesystem
# attack: ElementTree.write to a path outside
# profile: basic
import xml.etree.ElementTree as ET
ET.ElementTree(ET.Element("a")).write("@OUTSIDE@")
