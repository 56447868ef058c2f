# tprof-plot (render/tprof-plot.c): charts of a report drawn by gnuplot.
# Its main is not part of libtprof-render.a; it links like tprof-analyze.
RENDER_SRC := $(filter-out render/tprof-plot.c,$(RENDER_SRC))
RENDER_OBJ := $(RENDER_SRC:%.c=$(OBJ)/%.o)
TOOLS += $(BIN)/tprof-plot

$(BIN)/tprof-plot: $(OBJ)/render/tprof-plot.o $(LIBRENDER) $(LIBANALYZE) $(LIBTPROF)
	@mkdir -p $(BIN)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
