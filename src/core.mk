# Core: nothing beyond Makefile.am yet.
