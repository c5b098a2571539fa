# Core.  The rules directory is compiled into paths.o from the Makefile
# (PW_RULES_DIR in AM_CPPFLAGS): rebuild it when configure changes the
# prefix.
src/paths.$(OBJEXT): Makefile
