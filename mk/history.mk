# history.mk - the run history (issue 15), included by the Makefile.
#
#   build/libtprof-history.a   history/*.c: the store over SQLite and
#                              PostgreSQL, ingest, the views (a layer beside
#                              render: base <- parse <- analyze <- history <- cli)
#   bin/tprof-history          cli/tprof-history.c, built like every main
#
# Needs libsqlite3-dev and libpq-dev (scripts/deps.sh); test_history also
# starts a throwaway server with the postgresql package's binaries when
# they are installed. The Makefile names $(LIBHISTORY) (in LAYER_LIBS).

HISTORY_SRC := $(wildcard history/*.c)
HISTORY_OBJ := $(HISTORY_SRC:%.c=$(OBJ)/%.o)
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)

$(LIBHISTORY): $(HISTORY_OBJ)
$(OBJ)/history/db_pg.o: CPPFLAGS_ALL += $(PQ_CFLAGS)

# every tool links every layer; only those that use the history pull these in
LIBS += -lsqlite3 -lpq
