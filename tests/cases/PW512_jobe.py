__student_answer__ = "x"  # ok under jobe
__saved_input__ = input  # ok under jobe
print(__student_answer__)  # ok
__builtins__  # error (PW510)
