# category: filesystem
# attack: io.FileIO on the result pipe's fd to write the program's own result line (a forged result, a fake blocked event) and flood it
# profile: basic filesystem
# run-layer: audit hook
import io
f = io.FileIO(3, "w", closefd=False)
f.write(b'R{"result": "42", "variables": {}, "error": null, "exit_code": 0}\n')
f.write(b"Aforged-event\n")
f.write(b"x" * (64 << 20))
