# faithful: full
pritn("hello")
