/// @file checked_calls.cuh
/// @brief Exercise 13b: fresh inputs for every timed call, and its output judged at the stop event.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "data.hpp"
#include "gallery.cuh"

namespace exercise13b {

/// @p out, read when a call's stop event had completed, against @p expected,
/// the CPU's answer for that call's inputs: matched when every element is
/// equal; unwritten when any element is NaN (the poison: nothing wrote it
/// yet); stale otherwise (numbers, but not the answer for these inputs).
ch13::OutputAtStop judge_output(const std::vector<float>& out, const std::vector<float>& expected);

/// What checked_calls found.
struct CheckedCalls {
  std::vector<double> window_us;  ///< one event window per call, in µs
  int unwritten = 0;              ///< calls whose output was judged unwritten at the stop event
  int stale = 0;                  ///< calls whose output was judged stale at the stop event
};

/// Times @p calls calls of @p w (`w.call(caller)`), each on an idle GPU between
/// two events on @p caller that bracket the streams it declares (`w.streams`),
/// and judges each call's output (judge_output) as it is when the stop event has
/// completed. Every call gets fresh inputs (`w.problem->fill(seed + i, caller)`
/// for call i) and an output poisoned before it (`w.problem->poison(caller)`).
CheckedCalls checked_calls(ch13::Workload& w, int calls, std::uint64_t seed, cudaStream_t caller);

}  // namespace exercise13b
