# category: filesystem
# attack: io.FileIO on the result channel to write a checklist failure ("the sandbox could not be set up") after the program started
# profile: basic
# verdict: ok error rejected
# never: invented-setup-failure
import io
f = io.FileIO(3, "w", closefd=False)
f.write(b"Einvented-setup-failure\n")
