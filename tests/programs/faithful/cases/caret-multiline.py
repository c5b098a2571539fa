total = (1 +
         2 +
         'x')
