/*
 * emu_attn.cc - `make check-cuda-emu`: the attention kernels' own source
 * (replay/attn.cu, extracted by extract.sh) compiled for the CPU and run
 * with one thread per CUDA thread, a real barrier for __syncthreads and the
 * warp shuffles through shared slots, against a double reference: the
 * small-graph kernel at every instantiation (graphs of 0, 1, 2, 5, 17, 30,
 * 31, 32, 33, 43 and 64 nodes; head sizes 16 to 128), the fused kernel on
 * larger graphs through a graph list, and the projection kernel at sizes
 * that are not multiples of its tile. Q, K and V are read as the columns of
 * one [n, 3d] array, as after the projections.
 *
 * What it checks where no GPU is: indexing, padding, masking, barriers and
 * the softmax reductions; shared memory starts as NaN, so a read of a slot
 * no thread wrote shows. Built with ASan and UBSan (any out-of-bounds
 * access is an error). Not checked: timing, bank conflicts, BF16, and
 * anything a real warp does differently from threads meeting at barriers.
 */
#include <barrier>
#include <thread>
#include <vector>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <random>
#include <algorithm>
#include <functional>
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __shared__ static /* blocks run one at a time */
using std::min;
struct dim3e { unsigned x = 0, y = 0, z = 0; };
thread_local dim3e threadIdx, blockIdx;
dim3e blockDim, gridDim;
float *emu_shared;
std::barrier<> *g_bar;
float *g_shuf;
static void __syncthreads() { g_bar->arrive_and_wait(); }
static float __shfl_xor_sync(unsigned, float v, int o)
{
	int t = threadIdx.x + threadIdx.y * blockDim.x;
	g_shuf[t] = v;
	__syncthreads();
	float r = g_shuf[t ^ o];
	__syncthreads();
	return r;
}
struct alignas(16) float4 { float x, y, z, w; };
static float4 make_float4(float a, float b, float c, float d) { return float4{a, b, c, d}; }
static inline float tof(float x) { return x; }
template <typename T> T fromf(float x);
template <> float fromf<float>(float x) { return x; }
#include "emu_kernels.inc"

/* run a kernel over grid x block with NaN-filled shared memory */
static void launch(dim3e grid, dim3e block, size_t smem_floats, const std::function<void()> &body)
{
	blockDim = block; gridDim = grid;
	int nt = block.x * block.y;
	std::vector<float> sm(smem_floats), sh(nt);
	for (unsigned bz = 0; bz < std::max(1u, grid.z); bz++)
	for (unsigned by = 0; by < std::max(1u, grid.y); by++)
		for (unsigned bx = 0; bx < grid.x; bx++) {
			std::fill(sm.begin(), sm.end(), NAN);
			emu_shared = sm.data();
			g_shuf = sh.data();
			std::barrier<> bar(nt);
			g_bar = &bar;
			std::vector<std::thread> th;
			for (int t = 0; t < nt; t++)
				th.emplace_back([&, t] {
					threadIdx.x = t % block.x; threadIdx.y = t / block.x; threadIdx.z = 0;
					blockIdx.x = bx; blockIdx.y = by; blockIdx.z = bz;
					body();
				});
			for (auto &x : th) x.join();
		}
}

static double ref_check(const std::vector<int> &goff, const float *qkv, int ld, int dim, int heads, const float *out)
{
	int dh = dim / heads; double scale = 1 / std::sqrt((double)dh), maxerr = 0, maxref = 0;
	for (size_t g = 0; g + 1 < goff.size(); g++) {
		int a = goff[g], n = goff[g + 1] - a;
		for (int h = 0; h < heads; h++)
			for (int i = 0; i < n; i++) {
				std::vector<double> s(n); double mx = -INFINITY, sum = 0;
				for (int j = 0; j < n; j++) {
					double d = 0;
					for (int e = 0; e < dh; e++)
						d += (double)qkv[(size_t)(a + i) * ld + h * dh + e] * qkv[(size_t)(a + j) * ld + dim + h * dh + e];
					s[j] = d * scale; mx = std::max(mx, s[j]);
				}
				for (int j = 0; j < n; j++) sum += s[j] = std::exp(s[j] - mx);
				for (int e = 0; e < dh; e++) {
					double acc = 0;
					for (int j = 0; j < n; j++) acc += s[j] * qkv[(size_t)(a + j) * ld + 2 * dim + h * dh + e];
					acc /= sum;
					double o = out[(size_t)(a + i) * dim + h * dh + e];
					maxerr = std::max(maxerr, std::fabs(o - acc)); maxref = std::max(maxref, std::fabs(acc));
					if (std::isnan(o)) return INFINITY;
				}
			}
	}
	return maxerr / maxref;
}

int main()
{
	std::mt19937 rng(5);
	std::uniform_real_distribution<float> U(-1, 1);
	int fails = 0;
	const int dims[][2] = { {300, 4}, {64, 4}, {256, 2}, {128, 2}, {32, 1}, {96, 1}, {128, 8} };
	for (auto &dd : dims) {
		int dim = dd[0], heads = dd[1], dh = dim / heads;
		std::vector<int> sizes = { 1, 2, 33, 30, 17, 64, 32, 43, 5, 0, 31 };
		std::vector<int> goff = { 0 };
		for (int n : sizes) goff.push_back(goff.back() + n);
		int N = goff.back(), ld = 3 * dim;
		std::vector<float> qkv((size_t)N * ld);
		for (auto &x : qkv) x = U(rng) * 2;
		std::vector<float> out((size_t)N * dim, NAN);
		std::vector<int32_t> l32, l64;
		for (size_t g = 0; g < sizes.size(); g++)
			if (sizes[g] > 0 && sizes[g] <= 32) l32.push_back(g); else if (sizes[g] > 32) l64.push_back(g);
		float scale = 1.0f / sqrtf((float)dh);
		const float *q = qkv.data(), *k = q + dim, *v = q + 2 * dim;
		auto run = [&](auto np_tag, auto dhm_tag, std::vector<int32_t> &list) {
			constexpr int NP = decltype(np_tag)::value, DHM = decltype(dhm_tag)::value;
			if (list.empty()) return;
			dim3e grid{ (unsigned)(list.size() * heads), 1, 1 }, block{ NP * NP / 16, 1, 1 };
			launch(grid, block, small_smem(NP, dh) / 4, [&] {
				small_kernel<NP, DHM, float>(q, k, v, ld, out.data(), goff.data(), list.data(), heads, dim, dh, scale);
			});
		};
		auto by_dh = [&](auto np_tag, std::vector<int32_t> &list) {
			if (dh <= 32) run(np_tag, std::integral_constant<int, 32>(), list);
			else if (dh <= 64) run(np_tag, std::integral_constant<int, 64>(), list);
			else run(np_tag, std::integral_constant<int, 128>(), list);
		};
		by_dh(std::integral_constant<int, 32>(), l32);
		by_dh(std::integral_constant<int, 64>(), l64);
		double e = ref_check(goff, qkv.data(), ld, dim, heads, out.data());
		printf("small d%d h%d: rel err %.3g  smem32 %zu smem64 %zu\n", dim, heads, e, small_smem(32, dh), small_smem(64, dh));
		fails += !(e < 1e-5);
	}
	/* fused kernel with a list and ld on larger graphs */
	{
		int dim = 128, heads = 2, dh = 64;
		std::vector<int> sizes = { 130, 20, 200 };
		std::vector<int> goff = { 0 };
		for (int n : sizes) goff.push_back(goff.back() + n);
		int N = goff.back(), ld = 3 * dim;
		std::vector<float> qkv((size_t)N * ld);
		for (auto &x : qkv) x = U(rng);
		std::vector<float> out((size_t)N * dim, NAN);
		std::vector<int32_t> l32 = { 1 }, large = { 0, 2 };
		float scale = 1.0f / sqrtf((float)dh);
		const float *q = qkv.data(), *k = q + dim, *v = q + 2 * dim;
		int tile = SMEM_FLOATS / 2 / 64;
		launch({ (unsigned)(large.size() * heads), (unsigned)((200 + ROWS - 1) / ROWS), 1 }, { ROWS, 1, 1 }, 2 * tile * 64, [&] {
			fused_kernel<64, float>(q, k, v, ld, out.data(), goff.data(), large.data(), heads, dim, dh, tile, scale);
		});
		launch({ (unsigned)(l32.size() * heads), 1, 1 }, { 64, 1, 1 }, small_smem(32, dh) / 4, [&] {
			small_kernel<32, 64, float>(q, k, v, ld, out.data(), goff.data(), l32.data(), heads, dim, dh, scale);
		});
		double e = ref_check(goff, qkv.data(), ld, dim, heads, out.data());
		printf("fused large + small: rel err %.3g\n", e);
		fails += !(e < 1e-5);
	}
	/* projection: y [n, nc] = x [n, kd] w [kd, nc] */
	{
		int n = 37, kd = 19, nc = 57;
		std::vector<float> x((size_t)n * kd), w((size_t)kd * nc), y((size_t)n * nc, NAN);
		for (auto &a : x) a = U(rng);
		for (auto &a : w) a = U(rng);
		launch({ (unsigned)((n + MM - 1) / MM), (unsigned)((nc + MM - 1) / MM), 1 }, { MM, MM, 1 }, 0, [&] {
			project_kernel<float>(x.data(), w.data(), y.data(), n, kd, nc);
		});
		double err = 0;
		for (int i = 0; i < n; i++) for (int c = 0; c < nc; c++) {
			double s = 0; for (int kk = 0; kk < kd; kk++) s += (double)x[i * kd + kk] * w[kk * nc + c];
			err = std::max(err, std::fabs(s - y[i * nc + c]));
		}
		printf("project: max abs err %.3g\n", err);
		fails += !(err < 1e-5);
	}
	printf("%s\n", fails ? "FAIL" : "all ok");
	return fails;
}
