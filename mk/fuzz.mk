# fuzz.mk - libFuzzer targets for the parsers (issue 6).
#
#   make fuzz                   build every target, run each FUZZ_SECONDS (10)
#   make fuzz FUZZ_SECONDS=300  longer runs; FUZZ_TARGETS="lines num" for some
#   make fuzz-build             build only (into $(OBJ)/fuzz/)
#
# The targets (fuzz/fuzz_*.c) are built with clang and
# -fsanitize=fuzzer,address,undefined from the base/ and parse/ sources themselves
# (the layer libraries are gcc-built without sanitizers). Each run starts from the
# committed seeds fuzz/corpus/<target>/ plus what earlier runs found
# ($(OBJ)/fuzz/corpus/<target>/); a crash fails the run and leaves its input
# in fuzz/crashes/ (not committed: minimize it, move it to
# tests/data/regress/<target>-<name>, see fuzz/README.md).

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 10
FUZZ_TARGETS ?= lines rules ndjson docs num scan discover
FUZZ_DIR     := $(OBJ)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g $(FUZZ_SAN)
# the format packs' data is generated into $(OBJ)/parse/packs_data.c
FUZZ_OBJS    := $(BASE_SRC:%.c=$(FUZZ_DIR)/%.o) $(PARSE_SRC:%.c=$(FUZZ_DIR)/%.o) \
		$(FUZZ_DIR)/parse/packs_data.o
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-deps

fuzz-deps:
	@sh scripts/deps.sh fuzz

fuzz-build: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz: fuzz-build
	@sh fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(CPPFLAGS_ALL) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/parse/packs_data.o: $(OBJ)/parse/packs_data.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(CPPFLAGS_ALL) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(call say,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(CPPFLAGS_ALL) $(WARN) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS)

# The regression suite compiles the fuzz targets in (tests/test_regress.c).
$(OBJ)/tests/test_regress: $(wildcard fuzz/*.c fuzz/*.h)

# Keep the instrumented objects between builds (they are intermediate).
.SECONDARY: $(FUZZ_OBJS)
