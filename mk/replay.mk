# replay.mk - tprof-replay (issue 5), included by the Makefile.
#
#   build/libtprof-replay.a   replay/*.c except the main, plus the CUDA
#                             objects (replay/*.cu) when nvcc is found;
#                             without nvcc, or with `make CUDA=0`, the stub
#                             replay/cuda_stub.c ("built without CUDA")
#   bin/tprof-replay          the tool (appended to TOOLS)
#   make check-gpu            CUDA walks bit for bit and attention within
#                             tolerance against the CPU, in one command from a
#                             clean tree; it fails, saying why, where the
#                             build has no CUDA or no device answers
#   make check                builds the check-gpu program too when nvcc is
#                             found (so that a break shows without a GPU);
#                             it does not run it
#   make check-cuda-emu       the attention kernels' own source run on the
#                             CPU, one thread per CUDA thread, against a
#                             double reference (tests/emu/; C++20, no nvcc)
#
# CUDA code is linked with the static runtime (libcudart_static), so the
# binary needs no libcudart.so at run time; only the driver (libcuda.so,
# loaded on demand) is needed to use a GPU, and without it the tool falls
# back to the CPU.

# $(LIBREPLAY) is named in the Makefile (LAYER_LIBS)

# nvcc on PATH, else CUDA's default place; `make NVCC=` builds as without it
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
endif
CUDA ?= 1
REPLAY_CUDA := $(if $(filter 0,$(CUDA)),,$(NVCC))
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(REPLAY_CUDA))
# sm_90: H100/H200 code, plus compute_90 PTX that newer GPUs JIT-compile
NVCC_ARCH ?= -arch=sm_90
NVCCFLAGS ?= -O2 -std=c++17 $(NVCC_ARCH) --Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror

REPLAY_C_SRC := $(wildcard replay/*.c)
ifneq ($(REPLAY_CUDA),)
REPLAY_C_SRC := $(filter-out replay/cuda_stub.c,$(REPLAY_C_SRC))
REPLAY_CU_OBJ := $(patsubst %.cu,$(OBJ)/%.cu.o,$(wildcard replay/*.cu))
REPLAY_LIBS := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
else
REPLAY_CU_OBJ :=
REPLAY_LIBS :=
endif
REPLAY_OBJ := $(REPLAY_C_SRC:%.c=$(OBJ)/%.o) $(REPLAY_CU_OBJ)

# The archive's members depend on CUDA=...: a file that changes only when
# the choice does makes switching rebuild the archive instead of keeping
# the other choice's members.
REPLAY_MODE_FILE := $(OBJ)/replay/cuda-mode
REPLAY_MODE := $(if $(REPLAY_CUDA),cuda $(REPLAY_CUDA),stub)
$(shell mkdir -p $(OBJ)/replay && [ "$$(cat $(REPLAY_MODE_FILE) 2>/dev/null)" = "$(REPLAY_MODE)" ] || \
	echo "$(REPLAY_MODE)" >$(REPLAY_MODE_FILE))

# The kernels' loops only vectorize at -O3 (gcc's -O2 cost model refuses
# loops that need a remainder), and the softmax's clamp only without
# -ftrapping-math (no FP exceptions are used); the rest keeps the defaults.
$(OBJ)/replay/attn.o $(OBJ)/replay/walk.o: CFLAGS += -O3 -fno-trapping-math

# cuBLAS is opened at run time: after the loader's search path, this toolkit's own copy
$(OBJ)/replay/gemm.cu.o: NVCCFLAGS += -DTPR_CUDA_LIBDIR='"$(CUDA_HOME)/lib64"'

$(OBJ)/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(call say,NVCC,$<)
	$(Q)$(REPLAY_CUDA) $(CPPFLAGS_ALL) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(LIBREPLAY): $(REPLAY_OBJ) $(REPLAY_MODE_FILE)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $(REPLAY_OBJ)

# Only the tools that call the kernels link the CUDA runtime.
$(BIN)/tprof-replay $(OBJ)/tests/test_replay: TOOL_LIBS = $(REPLAY_LIBS)

CHECK_DEPS += $(BIN)/tprof-replay

.PHONY: check-gpu
ifneq ($(REPLAY_CUDA),)
GPU_CHECK := $(OBJ)/tests/gpu_replay
$(GPU_CHECK): tests/gpu_replay.c $(LAYER_LIBS)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) -o $@ $< $(LAYER_LIBS) $(LIBS) $(REPLAY_LIBS)

CHECK_DEPS += $(GPU_CHECK)

check-gpu: $(GPU_CHECK)
	@$(GPU_CHECK)
else
check-gpu:
	@echo "check-gpu: this build has no CUDA backend (no nvcc found, or CUDA=0): nothing was checked" >&2; exit 1
endif

# The kernels' logic where no GPU is: replay/attn.cu's kernels, extracted as
# text, compiled for the CPU with threads and barriers (tests/emu/emu_attn.cc).
EMU_CXX ?= $(CXX)
.PHONY: check-cuda-emu
$(OBJ)/tests/emu_kernels.inc: replay/attn.cu tests/emu/extract.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)sh tests/emu/extract.sh replay/attn.cu small_kernel fused_kernel project_kernel small_smem >$@.tmp && \
		mv $@.tmp $@

$(OBJ)/tests/emu_attn: tests/emu/emu_attn.cc $(OBJ)/tests/emu_kernels.inc
	$(call say,CXX,$@)
	$(Q)$(EMU_CXX) -std=c++20 -O1 -g -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-sign-compare \
		-fsanitize=address,undefined \
		-fno-sanitize-recover=all -pthread -I$(OBJ)/tests -o $@ $<

check-cuda-emu: $(OBJ)/tests/emu_attn
	@$(OBJ)/tests/emu_attn
