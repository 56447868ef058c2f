/*
 * walk.cu - GPM pattern generation on the GPU: one thread per walk, the
 * same walk_core.h code as the CPU, so the walks are bit-identical.
 *
 * A grid-stride loop covers any number of walks with a grid sized to the
 * device (32 blocks of 256 per SM), which keeps launch shapes legal for
 * 10^6-node graphs with many patterns.
 */
#include "cuda_kernels.h"
#include "walk_core.h"

__global__ void __launch_bounds__(256) walk_kernel(const int32_t *__restrict__ rowptr,
						   const int32_t *__restrict__ col,
						   struct tpr_walk_cfg c, int32_t n, int32_t n0,
						   int32_t n1, unsigned long long total,
						   int32_t *nodes, int32_t *edges)
{
	unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
	for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += stride)
		tpr_walk_index(rowptr, col, &c, n, n0, n1, i, nodes, edges);
}

cudaError_t tpr_cu_walks(const int32_t *rowptr, const int32_t *col, const struct tpr_walk_cfg &c,
			 int32_t n, int32_t n0, int32_t n1, int32_t *nodes, int32_t *edges, int sms,
			 cudaStream_t s)
{
	unsigned long long total = (unsigned long long)c.patterns * (unsigned long long)(n1 - n0);
	if (!total)
		return cudaSuccess;
	unsigned long long want = (total + 255) / 256, cap = (unsigned long long)(sms > 0 ? sms : 1) * 32;
	unsigned blocks = (unsigned)(want < cap ? want : cap);
	walk_kernel<<<blocks, 256, 0, s>>>(rowptr, col, c, n, n0, n1, total, nodes, edges);
	return cudaGetLastError();
}
