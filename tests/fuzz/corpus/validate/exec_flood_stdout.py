# expect: output_limit
# args: --max-output 10000 --timeout 10
while True:
    print("x" * 1000)
