# vectorscan.mk - the candidate search's SIMD matcher (parse/scan/scan.c, issue 16).
#
# With Debian's libvectorscan-dev (pkg-config name libhs) the markers are
# compiled into one Vectorscan database per run; without it, or with
#   make VECTORSCAN=0
# the portable matcher is built alone (same lines found, slower). The
# setting is remembered in $(OBJ)/.vectorscan so that changing it rebuilds
# parse/scan/scan.c.

VECTORSCAN ?= $(shell pkg-config --exists libhs 2>/dev/null && echo 1 || echo 0)

ifeq ($(VECTORSCAN),1)
CPPFLAGS_ALL += -DTPROF_VECTORSCAN $(shell pkg-config --cflags libhs)
LIBS += $(shell pkg-config --libs libhs)
endif

VS_STAMP := $(OBJ)/.vectorscan
$(shell mkdir -p $(OBJ) && { [ "$$(cat $(VS_STAMP) 2>/dev/null)" = "$(VECTORSCAN)" ] || echo $(VECTORSCAN) > $(VS_STAMP); })
$(OBJ)/parse/scan/scan.o: $(VS_STAMP)

# The candidate search alone, with and without pack-like markers (bench/).
.PHONY: bench-scan
bench-scan: $(OBJ)/bench/scanbench

$(OBJ)/bench/scanbench: bench/scanbench.c $(LIBTPROF) $(LIBBASE)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) -o $@ $< $(LIBTPROF) $(LIBBASE) $(LIBS)
bench: $(OBJ)/bench/scanbench
