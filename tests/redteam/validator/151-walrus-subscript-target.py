# attack: an assignment expression with a subscript target (a syntax error)
(items[0] := 1)
