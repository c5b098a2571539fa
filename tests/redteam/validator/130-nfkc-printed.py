# attack: fullwidth letters normalising to the reserved name printed
ｐｒｉｎｔｅｄ = "fake"
