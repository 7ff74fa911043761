#pragma once
// k-means as a CUDA engineer would write it with rune (the GPU build of kmeans.cpp): the distance
// step is a matrix product, so it goes to cuBLAS (from the CUDA toolkit), as PyTorch's cdist
// hands it to cuBLAS, on rune's arrays; rune then does the rest in fused passes on the same
// stream. One iteration:
//   1. the centroids' squared norms, a map over iota(k);
//   2. products[i + c * n] = point i . centroid c, one SGEMM (the n x d points times the d x k
//      centroids), written into memory rune reads through rune::view;
//   3. every point's nearest centroid, argmin over c of |c|^2 - 2 products[i + c * n] (|p|^2 is
//      the same for every c), stored, and the clusters' sizes, a histogram of it: one pass;
//   4. the clusters' coordinate sums, a histogram over k * d bins of the n * d coordinates;
//   5. the means (an empty cluster keeps its centroid).
// Steps 3 - 5 are kmeans.cpp's, with the argmin reading the products instead of d-long loops.
#include <cublas_v2.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <rune/rune.hpp>

namespace kmeans_cublas {

inline void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("kmeans: ") + call + " failed: " + cublasGetStatusString(status));
}

// A cuBLAS handle on the default stream, where rune's forces without an executor run.
class blas {
 public:
  blas() {
    check(cublasCreate(&handle_), "cublasCreate");
    check(cublasSetStream(handle_, 0), "cublasSetStream");
  }
  ~blas() { (void)cublasDestroy(handle_); }
  blas(const blas&) = delete;
  blas& operator=(const blas&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// The index of the smallest |c|^2 - 2 p.c over the k centroids of point i (the first on ties).
// The products are point-major within a centroid (i + c * n), so the threads of a warp, on
// neighbouring points, read neighbouring floats: with i * k + c each thread read its own 4 KB
// row at k = 1024 and the argmin, not the SGEMM, took most of an iteration.
RUNE_FN inline std::int32_t nearest_by_products(const float* products, const float* norms, rune::index_t i,
                                                rune::index_t n, rune::index_t k) {
  std::int32_t best = 0;
  float best_dist = 0;
  for (rune::index_t c = 0; c < k; ++c) {
    const float dist = norms[c] - 2.0f * products[i + c * n];
    if (c == 0 || dist < best_dist) {
      best_dist = dist;
      best = static_cast<std::int32_t>(c);
    }
  }
  return best;
}

// One iteration: the new centroids and the clusters' sizes (a Result of the two arrays).
// `products` holds n * k floats, allocated once by the caller.
template <class Result, class Sizes>
Result step(const rune::array<float>& points, const rune::array<float>& centroids, Sizes s, const blas& cublas,
            thrust::device_vector<float>& products) {
  const rune::index_t n = s.n, d = s.d, k = s.k;
  const auto pv = points.view();
  const auto cv = centroids.view();

  // 1. |c|^2 for every centroid.
  const rune::array<float> norms = rune::force(rune::map(
      [=] RUNE_FN (rune::index_t c) {
        float sum = 0;
        for (rune::index_t j = 0; j < d; ++j) sum += cv[c * d + j] * cv[c * d + j];
        return sum;
      },
      rune::iota(k)));

  // 2. The products, column-major n x k: element (i, c) at i + c * n. Both operands are
  //    column-major d x n and d x k as cuBLAS sees rune's row-major arrays, so the points are
  //    transposed.
  const float one = 1.0f, zero = 0.0f;
  check(cublasSgemm(cublas.get(), CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(k), static_cast<int>(d),
                    &one, points.data(), static_cast<int>(d), centroids.data(), static_cast<int>(d), &zero,
                    thrust::raw_pointer_cast(products.data()), static_cast<int>(n)),
        "cublasSgemm");

  // 3. The nearest centroid of every point, and the sizes: one pass.
  const rune::array<float> product_arr = rune::view(products);
  const auto prv = product_arr.view();
  const auto nv = norms.view();
  auto nearest = rune::map([=] RUNE_FN (rune::index_t i) { return nearest_by_products(prv.data, nv.data, i, n, k); },
                           rune::iota(n));
  auto sizes = rune::genhist(k, rune::plus{}, std::int32_t{0}, nearest, rune::replicate(n, std::int32_t{1}));
  static_assert(rune::plan_of<decltype(nearest), decltype(sizes)>::passes == 1,
                "a map and a histogram of it over the same iota: one pass");
  const auto [membership, count_arr] = rune::force(nearest, sizes);
  const auto mv = membership.view();
  const auto count_v = count_arr.view();

  // 4. The sums over k * d bins, over the n * d coordinates.
  auto coords = rune::iota(n * d);
  auto sum_bin = rune::map([=] RUNE_FN (rune::index_t e) -> rune::index_t { return mv[e / d] * d + e % d; }, coords);
  auto coord = rune::map([=] RUNE_FN (rune::index_t e) -> float { return pv[e]; }, coords);
  const rune::array<float> sum_arr = rune::force(rune::genhist(k * d, rune::plus{}, 0.0f, sum_bin, coord));

  // 5. The means.
  auto means = rune::map(
      [=] RUNE_FN (float sum, rune::index_t b) -> float {
        const std::int32_t size = count_v[b / d];
        return size > 0 ? sum / static_cast<float>(size) : cv[b];
      },
      sum_arr, rune::iota(k * d));
  return {rune::force(means), count_arr};
}
}  // namespace kmeans_cublas
