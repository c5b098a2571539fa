# attack: hide the exec call behind parentheses
(exec)("print('escaped')")
