# category: filesystem
# attack: numpy.fromfile on the secret: landlock (C-level fopen) refuses this one, not the audit hook
# profile: data_science
# verdict: error rejected
import numpy as np
print(np.fromfile("@SECRET_FILE@", dtype="uint8").tobytes())
