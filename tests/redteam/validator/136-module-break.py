# attack: break outside a loop (a compile-stage error)
break
