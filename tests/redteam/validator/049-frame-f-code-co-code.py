# attack: read raw bytecode through f_code.co_code
def gen():
    yield


print(gen().gi_frame.f_code.co_code)
