/// @file pinned.cuh
/// @brief Chapter 06's lesson: copies between host and device from pageable
/// and from page-locked ("pinned") memory, when `cudaMemcpyAsync` really is
/// asynchronous, registering memory the program already has, the CPU time a
/// non-blocking copy frees, and two special kinds of pinned memory.
///
/// Why pinned memory matters: a copy engine moves data by DMA, which needs
/// physical pages that cannot move. From pageable memory the driver first
/// copies, chunk by chunk, into a pinned staging buffer of its own, with the
/// CPU, and the host thread waits for that; from pinned memory the engine reads
/// the user's pages directly and the call can return at once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memory.cuh"
#include "registration_model.hpp"

namespace ch06 {

// --- host memory of each kind ---------------------------------------------------

/// The kinds of host memory the chapter compares.
enum class HostKind {
  pageable,        ///< ordinary memory (std::vector): the driver stages every copy
  pinned,          ///< cudaMallocHost / cudaHostAlloc: page-locked, the copy engine reads it directly
  write_combined,  ///< cudaHostAlloc(cudaHostAllocWriteCombined): pinned, not cached by the CPU
  mapped           ///< cudaHostAlloc(cudaHostAllocMapped): pinned and addressable by kernels ("zero-copy")
};

/// A short name for @p kind, e.g. "pageable".
const char* host_kind_name(HostKind kind);

/// @p bytes of host memory of one kind, every page already touched (written),
/// so no first-touch page fault lands inside a timed copy.
class HostMemory {
 public:
  /// Allocates and touches @p bytes of @p kind.
  HostMemory(HostKind kind, std::size_t bytes);
  unsigned char* data() { return pinned_.size() > 0 ? pinned_.data() : pageable_.data(); }  ///< host pointer
  std::size_t bytes() const { return bytes_; }                                                ///< size in bytes
  HostKind kind() const { return kind_; }                                                     ///< what it is

 private:
  HostKind kind_;
  std::size_t bytes_;
  std::vector<unsigned char> pageable_;
  lab::PinnedBuffer<unsigned char> pinned_;
};

/// Fills @p bytes at @p data with pseudo-random bytes from @p seed (fast enough for 1 GiB).
void fill_random(unsigned char* data, std::size_t bytes, std::uint64_t seed);

/// The byte in which a copy differs from its source, for the message.
struct CopyCheck {
  std::size_t bytes = 0;                 ///< bytes compared
  std::size_t first_difference = 0;     ///< offset of the first differing byte (when !intact)
  bool intact = false;                   ///< every byte arrived
  std::string detail() const;           ///< "268435456 bytes intact" or "byte 17 differs (of 4096)"
};

/// Compares @p bytes at @p actual with @p expected.
CopyCheck compare_bytes(const unsigned char* actual, const unsigned char* expected, std::size_t bytes);

// --- bandwidth ------------------------------------------------------------------------

/// Which way a copy goes.
enum class Direction {
  host_to_device,  ///< H2D, "copy in"
  device_to_host   ///< D2H, "copy out"
};

/// Times @p reps copies of @p bytes between @p host and @p device in
/// @p direction: `cudaMemcpyAsync` on @p stream between two events, the host
/// waiting after each copy (isolated samples, after one warm-up copy). From
/// pageable memory the call itself stages the data, so the events see the
/// whole copy either way. Device-to-host: @p device is first filled with a
/// pattern (untimed), so the copy never reads memory nothing wrote.
/// Returns the samples in ms.
std::vector<double> time_copy_ms(Direction direction, unsigned char* host, unsigned char* device, std::size_t bytes,
                                 cudaStream_t stream, int reps);

/// Times @p reps runs of both directions at once: @p bytes from @p host_in to
/// @p device_in on @p stream and from @p device_out to @p host_out on a second
/// stream, forked from and joined back to @p stream. Use pinned memory: from
/// pageable memory the two calls would run one after the other on the host.
/// @p device_out is first filled with a pattern (untimed), as in time_copy_ms().
std::vector<double> time_both_directions_ms(unsigned char* host_in, unsigned char* device_in,
                                            unsigned char* device_out, unsigned char* host_out,
                                            std::size_t bytes, cudaStream_t stream, int reps);

/// Copies random bytes from @p source to @p device and back into @p destination
/// (poisoned with 0xFF first), then compares them: the check behind every copy
/// the chapter times. Both host buffers must hold @p bytes.
CopyCheck round_trip(HostMemory& source, unsigned char* device, HostMemory& destination, std::size_t bytes,
                     std::uint64_t seed, cudaStream_t stream);

// --- the four combinations ------------------------------------------------------------

/// When a host-to-device copy call returned, and when the copy was done.
struct CallTiming {
  HostKind memory = HostKind::pageable;  ///< where the source was
  bool async_call = false;               ///< cudaMemcpyAsync (true) or cudaMemcpy
  double returned_ms = 0;                ///< median time until the call returned to the host
  double done_ms = 0;                    ///< median time until cudaDeviceSynchronize returned after it
  std::vector<double> returned_samples;  ///< every sample of returned_ms
  std::vector<double> done_samples;      ///< every sample of done_ms
  CopyCheck check;                       ///< the last copy, read back and compared with the source
  std::string call() const;              ///< "cudaMemcpyAsync" or "cudaMemcpy"
};

/// One host-to-device copy of all of @p source with cudaMemcpyAsync on
/// @p stream (@p async_call) or with cudaMemcpy (on the legacy default stream).
void copy_to_device(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream);

/// Copies @p source (random bytes) to @p device @p reps times with cudaMemcpy
/// or cudaMemcpyAsync (on @p stream), each from an idle GPU, reading a host
/// timer when the call returns and again after cudaDeviceSynchronize. Then
/// reads the device back and compares.
CallTiming time_copy_call(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream, int reps);

// --- registration: page-locking memory the program already has -------------------------

/// The reference for exercise 06 and Numba's `with cuda.pinned(array):`:
/// page-locks @p host, queues its copy to @p device on @p stream and returns at
/// once. The returned registration must live until the copy is done: unlocking
/// pages the copy engine is still reading is undefined. Synchronise @p stream,
/// then let the registration go.
lab::HostRegistration upload_registered(std::vector<float>& host, float* device, cudaStream_t stream);

/// What page-locking an existing buffer costs, against what it saves per copy.
struct RegistrationRun {
  std::size_t bytes = 0;            ///< size of the buffer
  double register_ms = 0;           ///< median cudaHostRegister time
  double unregister_ms = 0;         ///< median cudaHostUnregister time
  double pageable_copy_ms = 0;      ///< median H2D copy from the buffer unregistered
  double registered_copy_ms = 0;    ///< median H2D copy from the buffer registered
  CopyCheck contents;               ///< the buffer after registering and unregistering, against its first contents
  CopyCheck copied;                 ///< the registered copy read back from the device
  /// The inputs of copies_to_break_even().
  RegistrationCosts costs() const { return {register_ms + unregister_ms, pageable_copy_ms, registered_copy_ms}; }
};

/// Measures registration of @p buffer (a pageable HostMemory, filled with random
/// bytes) over @p reps rounds of register, copy, unregister; the copy from the
/// unregistered buffer is timed too. Checks that the contents survive.
RegistrationRun time_registration(HostMemory& buffer, unsigned char* device, cudaStream_t stream, int reps);

// --- CPU time freed -------------------------------------------------------------------

/// A fixed amount of CPU work (integer hashing), standing for the host's own
/// work between queuing a copy and needing its result. Returns a value that
/// depends on every step, so the compiler cannot drop it.
std::uint64_t cpu_work(std::int64_t steps);

/// How many cpu_work() steps take about @p milliseconds on this host.
std::int64_t calibrate_cpu_work(double milliseconds);

/// Where the CPU work went, relative to a host-to-device copy.
enum class Placement {
  after_nonblocking_copy,  ///< pinned + cudaMemcpyAsync, CPU work, then synchronise: they overlap
  after_pageable_copy,     ///< pageable + cudaMemcpyAsync, CPU work: the call itself waited for the copy
  after_early_sync         ///< pinned + cudaMemcpyAsync, synchronise at once ("touching the result"), CPU work
};

/// A short description of @p placement.
const char* placement_name(Placement placement);

/// One run of a copy with CPU work placed around it.
struct PlacementRun {
  Placement placement = Placement::after_nonblocking_copy;  ///< what was run
  double wall_ms = 0;                                     ///< median from the copy call to both being done
  std::vector<double> samples;                            ///< every wall time
  CopyCheck check;                                        ///< the copy read back
};

/// Runs @p placement @p reps times: a copy of @p pinned or @p pageable (same
/// size) to @p device on @p stream, and @p cpu_steps of cpu_work().
PlacementRun time_placement(Placement placement, HostMemory& pinned, HostMemory& pageable, unsigned char* device,
                            std::int64_t cpu_steps, cudaStream_t stream, int reps);

// --- write-combined and mapped memory ------------------------------------------------

/// Median GB/s of the CPU reading (summing) and writing (filling) @p bytes of
/// @p memory: write-combined memory is not cached by the CPU, so reads crawl.
struct CpuAccess {
  double read_gbps = 0;   ///< the CPU summing the buffer
  double write_gbps = 0;  ///< the CPU filling the buffer
};

/// Measures CPU reads and writes of @p memory, @p reps times each.
CpuAccess time_cpu_access(HostMemory& memory, int reps);

/// A kernel reading its input straight from mapped host memory ("zero-copy")
/// against copying it first.
struct ZeroCopyRun {
  int passes = 1;               ///< how many times the kernel reads the input
  double copy_then_kernel_ms = 0;  ///< median: H2D copy, then the kernel on device memory
  double zero_copy_ms = 0;      ///< median: the kernel reading the mapped host memory over the link
  bool correct = false;         ///< both outputs equal passes x input, exactly
  std::string detail;           ///< the comparisons
};

/// @p floats floats in @p mapped (a HostKind::mapped buffer): out[i] = passes x in[i],
/// the kernel sweeping the input @p passes times. Each run's output is poisoned first.
ZeroCopyRun time_zero_copy(HostMemory& mapped, std::size_t floats, int passes, cudaStream_t stream, int reps);

}  // namespace ch06
