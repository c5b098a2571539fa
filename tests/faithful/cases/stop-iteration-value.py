raise StopIteration(5)
