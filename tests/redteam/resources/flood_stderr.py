# category: resources
# attack: flood stderr
# profile: basic
# verdict: output_limit rejected
# timeout: 10
# max-output: 10000
class Loud:
    def __del__(self):
        raise ValueError("x" * 1000)
while True:
    Loud()
