# program: CodeRunner's python3_w_input template under the jobe profile: __saved_input__ keeps the real input(), a new input() echoes what it read, __student_answer__ holds the answer's text
# profile: basic jobe
# verdict: ok
# stdin: Bob
# stdout: Name? Bob
__saved_input__ = input


def input(prompt=''):
    s = __saved_input__(prompt)
    print(s)
    return s


__student_answer__ = """name = input('Name? ')"""
name = input("Name? ")
