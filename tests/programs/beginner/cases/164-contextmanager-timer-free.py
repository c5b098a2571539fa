from contextlib import contextmanager


@contextmanager
def section(title):
    print(f"== {title} ==")
    yield title.upper()
    print(f"== end of {title} ==")


with section("intro") as heading:
    print("inside", heading)
with section("body"):
    for i in range(2):
        print("paragraph", i + 1)
