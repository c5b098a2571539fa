# category: disclosure
# attack: numpy.show_config / sys info about the host
# profile: data_science
import numpy
numpy.show_config()
print(numpy.lib.utils.sys.modules["os"].environ)
