/*
 * gemm.cu - the projections' matrix product through cuBLAS, loaded at run
 * time. The binary links only the static CUDA runtime; libcublas (shipped
 * with the CUDA toolkit, not with the driver) is opened with dlopen the
 * first time a replay projects, so tprof-replay builds, starts and runs on
 * the CPU or with its own kernel wherever the library is absent.
 *
 * cuBLAS carries its own copy of the runtime; both work in the device's
 * primary context, so device pointers and the stream (a driver stream
 * under either runtime) pass between them.
 *
 * Row-major Y [n, nc] = X [n, kd] W [kd, nc] is column-major
 * Y^T = W^T X^T: cublasGemmEx(N, N, m = nc, n, k = kd, A = W (lda nc),
 * B = X (ldb kd), C = Y (ldc nc)), with no copy or transpose.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_api.h>

#include "cuda_kernels.h"

#ifndef TPR_CUDA_LIBDIR
#define TPR_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*set_stream_fn)(cublasHandle_t, cudaStream_t);
typedef cublasStatus_t (*set_math_fn)(cublasHandle_t, cublasMath_t);
typedef cublasStatus_t (*property_fn)(libraryPropertyType, int *);
typedef cublasStatus_t (*gemm_ex_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
				     const void *, const void *, cudaDataType, int, const void *,
				     cudaDataType, int, const void *, void *, cudaDataType, int,
				     cublasComputeType_t, cublasGemmAlgo_t);

struct tpr_cu_blas {
	void *lib;
	cublasHandle_t h;
	destroy_fn destroy;
	gemm_ex_fn gemm_ex;
	char name[96];
};

/* The library of this toolkit's major version first, then any. */
static void *open_lib(char *which, size_t n)
{
	static const char *const names[] = { "libcublas.so.13", "libcublas.so.12", "libcublas.so",
					     TPR_CUDA_LIBDIR "/libcublas.so" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (lib) {
			const char *slash = strrchr(names[i], '/');
			snprintf(which, n, "%s", slash ? slash + 1 : names[i]);
			return lib;
		}
	}
	return NULL;
}

static void *sym(void *lib, const char *name, int *missing)
{
	void *p = dlsym(lib, name);
	*missing |= p == NULL;
	return p;
}

int tpr_cu_blas_open(struct tpr_cu_blas **out, cudaStream_t s, char *why, size_t n)
{
	char which[64] = "";
	int missing = 0, v[3] = { 0, 0, 0 };
	*out = NULL;
	void *lib = open_lib(which, sizeof(which));
	if (!lib) {
		snprintf(why, n, "libcublas.so not found (the CUDA toolkit's cuBLAS is not installed)");
		return -1;
	}
	create_fn create = (create_fn)sym(lib, "cublasCreate_v2", &missing);
	set_stream_fn set_stream = (set_stream_fn)sym(lib, "cublasSetStream_v2", &missing);
	set_math_fn set_math = (set_math_fn)sym(lib, "cublasSetMathMode", &missing);
	property_fn property = (property_fn)sym(lib, "cublasGetProperty", &missing);
	destroy_fn destroy = (destroy_fn)sym(lib, "cublasDestroy_v2", &missing);
	gemm_ex_fn gemm_ex = (gemm_ex_fn)sym(lib, "cublasGemmEx", &missing);
	struct tpr_cu_blas *b = missing ? NULL : (struct tpr_cu_blas *)calloc(1, sizeof(*b));
	if (!b) {
		if (missing)
			snprintf(why, n, "%s lacks cublasGemmEx or its companions", which);
		else
			snprintf(why, n, "out of host memory");
		dlclose(lib);
		return -1;
	}
	b->lib = lib;
	b->destroy = destroy;
	b->gemm_ex = gemm_ex;
	cublasStatus_t st = create(&b->h);
	if (st == CUBLAS_STATUS_SUCCESS)
		st = set_stream(b->h, s);
	if (st == CUBLAS_STATUS_SUCCESS)
		st = set_math(b->h, CUBLAS_DEFAULT_MATH); /* no TF32 unless the compute type asks for it */
	if (st != CUBLAS_STATUS_SUCCESS) {
		snprintf(why, n, "%s: cublasCreate or its setup failed (cuBLAS status %d)", which, (int)st);
		tpr_cu_blas_close(b);
		return -1;
	}
	if (property(MAJOR_VERSION, &v[0]) != CUBLAS_STATUS_SUCCESS ||
	    property(MINOR_VERSION, &v[1]) != CUBLAS_STATUS_SUCCESS ||
	    property(PATCH_LEVEL, &v[2]) != CUBLAS_STATUS_SUCCESS)
		v[0] = v[1] = v[2] = 0;
	snprintf(b->name, sizeof(b->name), "cuBLAS %d.%d.%d (%s, cublasGemmEx)", v[0], v[1], v[2], which);
	*out = b;
	return 0;
}

void tpr_cu_blas_close(struct tpr_cu_blas *b)
{
	if (!b)
		return;
	/* teardown errors cannot be acted on; the library stays loaded until the process ends (the
	 * runtime inside it may have registered exit handlers) */
	if (b->h)
		(void)b->destroy(b->h);
	free(b);
}

const char *tpr_cu_blas_name(const struct tpr_cu_blas *b)
{
	return b->name;
}

int tpr_cu_blas_gemm(struct tpr_cu_blas *b, int precision, const void *x, const void *w, void *y, int n,
		     int kd, int nc)
{
	const float one = 1.0f, zero = 0.0f;
	cudaDataType t = precision == TPR_BF16 ? CUDA_R_16BF : CUDA_R_32F;
	cublasComputeType_t ct = precision == TPR_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
	return (int)b->gemm_ex(b->h, CUBLAS_OP_N, CUBLAS_OP_N, nc, n, kd, &one, w, t, nc, x, t, kd, &zero, y, t,
			       nc, ct, CUBLAS_GEMM_DEFAULT);
}
