# sanitize.mk - the whole test suite under AddressSanitizer, LeakSanitizer
# and UBSan (issue 6).
#
#   make check-asan    build everything into build-asan/ and bin-asan/ with
#                      -fsanitize=address,undefined, run every Criterion
#                      suite and the end-to-end tests against bin-asan/
#
# make check runs it too, after the plain suites (CHECK_SCRIPTS). Any
# sanitizer report, from a suite or from a tool it runs, fails the check:
# see scripts/check-asan.sh.

CHECK_SCRIPTS += scripts/check-asan.sh
CLEAN_EXTRA += build-asan bin-asan

.PHONY: check-asan

check-asan: deps
	@sh scripts/check-asan.sh
