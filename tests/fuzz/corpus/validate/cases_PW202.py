eval(input())  # error
compile('1', 'f', 'eval')  # error
breakpoint()  # error
x = int(input())  # ok: input is provided
