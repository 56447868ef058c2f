# history.mk - the run history (issue 15), included by the Makefile.
#
#   build/libtprof-history.a   history/*.c except the main: the store over
#                              SQLite and PostgreSQL, ingest, views
#   bin/tprof-history          the tool (appended to TOOLS)
#
# Needs libsqlite3-dev and libpq-dev (scripts/deps.sh); the PostgreSQL
# tests also use the server binaries of the postgresql package when found.

HISTORY_MAINS := history/tprof-history.c
HISTORY_SRC := $(filter-out $(HISTORY_MAINS),$(wildcard history/*.c))
HISTORY_OBJ := $(HISTORY_SRC:%.c=$(OBJ)/%.o)
LIBHISTORY := $(OBJ)/libtprof-history.a
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
HISTORY_LIBS := -lsqlite3 -lpq

CPPFLAGS_ALL += -Ihistory
$(OBJ)/history/db_pg.o: CPPFLAGS_ALL += $(PQ_CFLAGS)

TOOLS += $(BIN)/tprof-history

$(LIBHISTORY): $(HISTORY_OBJ)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN)/tprof-history: $(OBJ)/history/tprof-history.o $(LIBHISTORY) $(LIBRENDER) $(LIBANALYZE) $(LIBTPROF)
	@mkdir -p $(BIN)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(HISTORY_LIBS)

# Suites that use the history (TEST_LIBDEPS is set after this file: target-specific values win).
HISTORY_TESTS := $(OBJ)/tests/test_history
$(HISTORY_TESTS): $(LIBHISTORY)
$(HISTORY_TESTS): TEST_LIBDEPS = $(LIBHISTORY) $(LIBRENDER) $(LIBANALYZE) $(LIBTPROF)
$(HISTORY_TESTS): LIBS += $(HISTORY_LIBS)

CHECK_DEPS += $(BIN)/tprof-history
