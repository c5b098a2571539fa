# attack: an assignment expression with an attribute target (a syntax error)
(obj.attr := 1)
