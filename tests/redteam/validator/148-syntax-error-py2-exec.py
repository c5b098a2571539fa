# attack: Python 2 exec statement (a syntax error)
exec "print 1"
