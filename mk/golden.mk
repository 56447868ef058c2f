# Golden logs (tests/golden/gen_*.c): generators that print what the seeds'
# real code prints, from known inputs. Their output is checked in under
# tests/data/golden/ and read by tests/test_golden*.c; `make golden`
# rewrites it (the suites do not need the generators).
GOLDEN_SRC := $(wildcard tests/golden/gen_*.c)
GOLDEN_BIN := $(GOLDEN_SRC:tests/golden/%.c=$(OBJ)/golden/%)

$(OBJ)/golden/%: tests/golden/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(WARN) $(CFLAGS) -o $@ $< -lm

.PHONY: golden
golden: $(GOLDEN_BIN)
	@mkdir -p tests/data/golden
	$(Q)for g in $(GOLDEN_BIN); do $$g tests/data/golden || exit 1; done

# the golden suites share tests/golden.h
$(TEST_BIN): tests/golden.h
