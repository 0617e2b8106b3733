/// @file stencil.cuh
/// @brief The computation every version of chapter 12 performs, written once for
/// the host (the CPU reference, the CPU tests) and the device (every kernel).
///
/// The input is cut into tiles of tile_floats floats (the last one may be
/// shorter); out[i] = the tile-local 3-point stencil of in around i, the
/// neighbours wrapping inside the tile (so a tile needs no halo and copies stay
/// whole, 16-byte aligned blocks of memory), then @p work fused multiply-adds.
/// Every operation is exact in order (fmaf, an exact halving), so the GPU's
/// result equals the CPU's bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
/// The stencil's functions, for the host and the device alike (plain inline without nvcc).
#define CH12_HD __host__ __device__ __forceinline__
#else
/// The stencil's functions, for the host and the device alike (plain inline without nvcc).
#define CH12_HD inline
#endif

namespace ch12 {

/// One output from the element @p c and its tile-local neighbours @p left and
/// @p right, then @p work FMAs that keep it bounded (|v| stays below 2 for |inputs| <= 1).
CH12_HD float stencil_point(float left, float c, float right, int work) {
  float v = fmaf(0.25f, left + right, 0.5f * c);
  for (int k = 0; k < work; ++k) v = fmaf(v, 0.999f, 0.001f);
  return v;
}

/// The CPU reference for element @p i alone (the check windows of a large run).
inline float reference_at(const std::vector<float>& in, std::int64_t i, std::int64_t tile_floats, int work) {
  const auto n = static_cast<std::int64_t>(in.size());
  const std::int64_t start = i / tile_floats * tile_floats;
  const std::int64_t len = (n - start < tile_floats) ? n - start : tile_floats;
  const std::int64_t j = i - start;
  const float left = in[static_cast<std::size_t>(start + (j == 0 ? len - 1 : j - 1))];
  const float right = in[static_cast<std::size_t>(start + (j + 1 == len ? 0 : j + 1))];
  return stencil_point(left, in[static_cast<std::size_t>(i)], right, work);
}

/// The CPU reference: the whole output of @p in for tiles of @p tile_floats and @p work.
inline std::vector<float> reference(const std::vector<float>& in, std::int64_t tile_floats, int work) {
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<float> out(in.size());
  for (std::int64_t start = 0; start < n; start += tile_floats) {
    const std::int64_t len = (n - start < tile_floats) ? n - start : tile_floats;
    for (std::int64_t j = 0; j < len; ++j) {
      const float left = in[static_cast<std::size_t>(start + (j + len - 1) % len)];
      const float right = in[static_cast<std::size_t>(start + (j + 1) % len)];
      out[static_cast<std::size_t>(start + j)] =
          stencil_point(left, in[static_cast<std::size_t>(start + j)], right, work);
    }
  }
  return out;
}

}  // namespace ch12
