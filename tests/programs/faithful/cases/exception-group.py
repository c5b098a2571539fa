# faithful: full
errors = [ValueError('a'), TypeError('b')]
raise ExceptionGroup('two problems', errors)
