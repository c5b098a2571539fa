# attack: print the expected answer, write a forged "finished normally" report on the result channel, then fail
# expected-stdout: 42
# verdict: RE CE
import io
print(42)
f = io.FileIO(3, "w", closefd=False)
f.write(b'R{"result": null, "variables": {}, "error": null}\n')
raise ValueError("the run really failed")
