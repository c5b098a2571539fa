# attack: reach the metaclass type through a double __class__ and build classes freely
meta = (1).__class__.__class__
Evil = meta("Evil", (object,), {"x": 1})
print(Evil.__dict__)
