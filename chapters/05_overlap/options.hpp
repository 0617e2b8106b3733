/// @file options.hpp
/// @brief Chapter 05's command-line options, their rules, the chunk counts of
/// the sweep and the memory a run needs: plain C++, CPU-tested in
/// tests/ch05_model_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch05 {

/// Chapter 05's settings; the initial values are the defaults.
struct Options {
  std::int64_t mib = 256;             ///< the data copied each way (NVIDIA's figures: 256 MiB, 4 streams)
  std::int64_t max_chunks = 32;       ///< the sweep: 1, 2, 4, ... up to this
  std::int64_t chart_chunks = 4;      ///< chunks of the recorded runs (section 4)
  std::int64_t heavy_iterations = 0;  ///< steps of the heavy kernel; 0: as long as the copy in
  std::int64_t reps = 5;              ///< timed runs per row (the median is reported)
  std::int64_t queue_mib = 64;        ///< what each child of section 3 copies each way
  std::int64_t seed = 1;              ///< random input seed
};

/// Smallest chunk a schedule may use: 1024 floats (4 KiB). Smaller chunks
/// only measure launch and copy overheads.
constexpr std::int64_t kMinChunkFloats = 1024;

/// Declares the options in @p table, bound to @p o (which must outlive it),
/// and the rules that every chunk of --max-chunks and --chart-chunks holds at
/// least kMinChunkFloats floats and that --chart-chunks divides the data (the
/// sweep's powers of two up to 1024 always divide --mib MiB of floats).
void add_options(lab::Options& table, Options& o);

/// "" when @p chunks chunks of @p mib MiB each hold at least kMinChunkFloats
/// floats; else the usage error that names @p option.
std::string too_many_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib);

/// "" when @p chunks divides the floats of @p mib MiB (the schedules' chunks are
/// equal, as in async.cu); else the usage error that names @p option.
std::string uneven_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib);

/// The sweep's chunk counts: 1, 2, 4, ... up to --max-chunks.
std::vector<int> chunk_counts(const Options& o);

/// Floats copied each way (--mib).
std::size_t floats(const Options& o);

/// What a run allocates: on the device the array and a second one to measure
/// both copy directions; on the host pinned input and output, the inputs, two
/// CPU references and a copy of the output (6 x --mib).
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch05
