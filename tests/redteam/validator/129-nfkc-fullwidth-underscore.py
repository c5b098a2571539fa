# attack: a fullwidth low line at the start of a name (a syntax error)
＿＿import＿＿("os")
