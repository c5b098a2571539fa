import numpy as np  # error: data_science
import http.client  # error: network
import pathlib  # error: filesystem
