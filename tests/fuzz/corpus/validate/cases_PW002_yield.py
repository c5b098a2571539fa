# error: yield outside a function
yield 1
