__student_answer__ = "x"  # error
__saved_input__ = input  # error
print(__student_answer__)  # error
__builtins__  # error (PW510)
__init__  # error (PW510)
__a_b  # error (PW510)
