def read_lines(text):
    for line in text.splitlines():
        yield line.strip()


def non_empty(lines):
    for line in lines:
        if line:
            yield line


def numbered(lines):
    for i, line in enumerate(lines, 1):
        yield f"{i:2}: {line}"


poem = """
  Roses are red
  
  Violets are blue
Sugar is sweet
"""
for out in numbered(non_empty(read_lines(poem))):
    print(out)
