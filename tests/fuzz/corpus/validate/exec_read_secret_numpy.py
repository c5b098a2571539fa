# expect: error
# landlock (C-level fopen) refuses this one, not the audit hook
# args: --profile data_science
import numpy as np
print(np.fromfile("@SECRET_FILE@", dtype="uint8").tobytes())
