import numpy as np  # ok with --profile data_science
import socket  # error: network
