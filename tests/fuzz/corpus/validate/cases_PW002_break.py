# error: break outside a loop, also in restricted
break
