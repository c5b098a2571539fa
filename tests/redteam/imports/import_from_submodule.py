# category: imports
# attack: from xml.etree import ElementTree then its sys
# profile: basic
from xml.etree import ElementTree
print(ElementTree.sys.modules["os"])
