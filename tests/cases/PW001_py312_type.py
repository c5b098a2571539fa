# Python 3.12 type alias: the finding says which Python pyward reads.
type Pair = tuple[int, int]
