# category: network
# attack: numpy.lib.npyio.DataSource opening a URL
# profile: data_science
import numpy
ds = numpy.DataSource(None)
print(ds.open("http://127.0.0.1:@PORT@/x.txt").read())
