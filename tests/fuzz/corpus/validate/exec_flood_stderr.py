# expect: output_limit
# args: --max-output 10000 --timeout 10
class Loud:
    def __del__(self):
        raise ValueError("x" * 1000)
while True:
    Loud()
