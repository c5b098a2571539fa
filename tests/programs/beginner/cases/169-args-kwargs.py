def describe(*args, **kwargs):
    print("positional:", args)
    for key in sorted(kwargs):
        print(f"  {key} = {kwargs[key]}")


describe(1, 2, 3)
describe("x", color="red", size=10)
values = [5, 6]
options = {"sep": "-"}
describe(*values, **options)
print(max(*values, 3))
