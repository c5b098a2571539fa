# program: ds numpy work
# profile: data_science
# verdict: ok
# timeout: 30
# stdout: 1.0 True 4.0 (500, 500)
import numpy as np
rng = np.random.default_rng(7)
a = rng.standard_normal((500, 500))
inv = np.linalg.inv(a)
ident = a @ inv
spectrum = np.abs(np.fft.rfft(np.sin(np.linspace(0, 8 * np.pi, 1024))))
print(round(float(np.trace(ident)) / 500, 6), np.allclose(ident, np.eye(500)),
      float(np.argmax(spectrum)), ident.shape)
