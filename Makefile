# tprof - build, test and install.
#
#   make            build the tools into bin/
#   make demo       install missing packages, build, run on a bundled sample
#   make check      install missing packages, build, run the whole test suite
#   make install    PREFIX=/usr/local DESTDIR=
#
# Every layer is a static library (base/, parse/, analyze/, render/,
# replay/, history/; the last two have their rules in mk/); the mains in
# cli/ are thin and link them.

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wvla -Wformat=2 \
           -Wno-format-nonliteral
CPPFLAGS_ALL := -D_GNU_SOURCE -I. $(CPPFLAGS)
LIBS    := -lpcre2-8 -lcsv -lz -lm -lpthread
TEST_LIBS := -lcriterion

BIN := bin
OBJ := build

# `make V=1` shows the full commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif

# The layers, each a static library of every .c in its folder (see README,
# "How the code is laid out"): base <- parse <- analyze <- render <- cli,
# replay beside analyze, history beside render. cli/*.c are the mains, one
# tool each.
BASE_SRC := $(wildcard base/*.c)
BASE_OBJ := $(BASE_SRC:%.c=$(OBJ)/%.o)
LIBBASE := $(OBJ)/libtprof-base.a

PARSE_SRC := $(wildcard parse/*.c parse/*/*.c)
PARSE_OBJ := $(PARSE_SRC:%.c=$(OBJ)/%.o) $(OBJ)/parse/packs_data.o
LIBTPROF := $(OBJ)/libtprof-parse.a
# The format packs, compiled in so that bin/ works without installing.
FORMATS := $(sort $(wildcard formats/*.rules))
# Their list, rewritten when it changes: a pack removed rebuilds them too.
FORMATS_LIST := $(OBJ)/parse/formats.list
$(shell mkdir -p $(OBJ)/parse && (echo '$(FORMATS)' | cmp -s - $(FORMATS_LIST) || echo '$(FORMATS)' > $(FORMATS_LIST)))

ANALYZE_SRC := $(wildcard analyze/*.c)
ANALYZE_OBJ := $(ANALYZE_SRC:%.c=$(OBJ)/%.o)
LIBANALYZE := $(OBJ)/libtprof-analyze.a

RENDER_SRC := $(wildcard render/*.c)
RENDER_OBJ := $(RENDER_SRC:%.c=$(OBJ)/%.o)
LIBRENDER := $(OBJ)/libtprof-render.a

# cli/*.c are the tools' mains, one each; cli/common/ is what they share
CLI_MAINS := $(wildcard cli/*.c)
CLI_SRC := $(wildcard cli/common/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(OBJ)/%.o)
LIBCLI := $(OBJ)/libtprof-cli.a
TOOLS := $(CLI_MAINS:cli/%.c=$(BIN)/%)

# The man pages as installed: man/*.1 with their generated parts (man/mkman.c)
MAN_SRC := $(wildcard man/*.1)
MAN_OUT := $(MAN_SRC:man/%=$(OBJ)/man/%)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(OBJ)/tests/%)

# The archives of the layers whose rules are in mk/ (mk/history.mk and
# mk/replay.mk), named here so that LAYER_LIBS is complete before any part
# is read: make expands a rule's prerequisites where it reads the rule, so a
# part that links the layers (check-gpu) would otherwise get an empty list.
LIBHISTORY := $(OBJ)/libtprof-history.a
LIBREPLAY := $(OBJ)/libtprof-replay.a

# Every tool links every layer: an archive only contributes the objects a
# tool uses, so tprof-parse gets no analysis code. Whatever links the layers
# (tools, tests, check-gpu, bench programs) names them as prerequisites.
LAYER_LIBS := $(LIBCLI) $(LIBHISTORY) $(LIBREPLAY) $(LIBRENDER) $(LIBANALYZE) $(LIBTPROF) $(LIBBASE)
TEST_LIBDEPS := $(LAYER_LIBS)

# The parts in mk/, one file each, add to CHECK_DEPS (built before the
# tests), CHECK_SCRIPTS (run after the Criterion suites) and CLEAN_EXTRA
# here, and bring their own rules. history.mk, replay.mk and xlsx.mk are
# needed by every build (every tool links those layers and libraries);
# the others add targets of their own or use what is installed.
.DEFAULT_GOAL := all
CHECK_DEPS :=
CHECK_SCRIPTS := scripts/check-layers.sh tests/check-layers-test.sh
CLEAN_EXTRA :=
include $(sort $(wildcard mk/*.mk))

.PHONY: all deps demo check test install uninstall clean bench

all: $(TOOLS) $(MAN_OUT)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/parse/packs_data.c: $(FORMATS) $(FORMATS_LIST) scripts/embed-formats.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)sh scripts/embed-formats.sh $(FORMATS) > $@.tmp && mv $@.tmp $@

$(OBJ)/parse/packs_data.o: $(OBJ)/parse/packs_data.c
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) -c $< -o $@

# one archive rule for every layer
$(OBJ)/libtprof%.a:
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $(filter %.o,$^)

$(LIBBASE): $(BASE_OBJ)
$(LIBTPROF): $(PARSE_OBJ)
$(LIBANALYZE): $(ANALYZE_OBJ)
$(LIBRENDER): $(RENDER_OBJ)
$(LIBCLI): $(CLI_OBJ)

# the mains stay built between links
.SECONDARY: $(CLI_MAINS:%.c=$(OBJ)/%.o)

$(BIN)/%: $(OBJ)/cli/%.o $(LAYER_LIBS)
	@mkdir -p $(BIN)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(TOOL_LIBS)

$(OBJ)/mkman: man/mkman.c $(LAYER_LIBS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(TOOL_LIBS)

$(OBJ)/man/%.1: man/%.1 $(OBJ)/mkman
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(OBJ)/mkman $< $@

$(OBJ)/tests/%: tests/%.c $(TEST_LIBDEPS) tests/testutil.h tests/antest.h tests/packtest.h $(wildcard tests/golden/*.h)
	@mkdir -p $(dir $@)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) -Itests $(WARN) $(CFLAGS) -o $@ $< $(TEST_LIBDEPS) $(LIBS) $(TOOL_LIBS) $(TEST_LIBS)

deps:
	@sh scripts/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh

# The whole suite: Criterion unit suites, then end-to-end CLI tests.
check: deps
	@$(MAKE) --no-print-directory all tests $(CHECK_DEPS)
	@sh scripts/run-tests.sh $(TEST_BIN)
	@for s in $(CHECK_SCRIPTS); do sh $$s || exit 1; done

tests: $(TEST_BIN)

test: check

BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions

# Every tool prints its completion scripts from its option table
# (--completion bash|zsh); install writes them beside the tools.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN_OUT) $(DESTDIR)$(PREFIX)/share/man/man1/
	@for t in $(TOOLS:$(BIN)/%=%); do \
		$(BIN)/$$t --completion bash >$(DESTDIR)$(BASHCOMPDIR)/$$t && \
		$(BIN)/$$t --completion zsh >$(DESTDIR)$(ZSHCOMPDIR)/_$$t || exit 1; \
	done
	install -d $(DESTDIR)$(PREFIX)/share/tprof/formats
	install -m 644 $(FORMATS) $(DESTDIR)$(PREFIX)/share/tprof/formats/

uninstall:
	rm -f $(TOOLS:$(BIN)/%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -f $(patsubst man/%,$(DESTDIR)$(PREFIX)/share/man/man1/%,$(wildcard man/*.1))
	rm -f $(TOOLS:$(BIN)/%=$(DESTDIR)$(BASHCOMPDIR)/%) $(TOOLS:$(BIN)/%=$(DESTDIR)$(ZSHCOMPDIR)/_%)
	rm -rf $(DESTDIR)$(PREFIX)/share/tprof/formats

bench: all
	@sh bench/run.sh

clean:
	rm -rf $(BIN) $(OBJ) out $(CLEAN_EXTRA)

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
