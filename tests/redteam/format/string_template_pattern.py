# category: format
# attack: string.Template with a custom pattern reaching attributes
# profile: basic
import string
class T(string.Template):
    idpattern = r"[_a-z][_a-z0-9.]*"
print(T("$__class__").substitute({"__class__": 1}))
t = T("${x}")
print(t.pattern, t.template)
