# attack: continue outside a loop (a compile-stage error)
continue
