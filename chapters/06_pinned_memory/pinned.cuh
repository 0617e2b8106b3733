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
///
/// One function per section of the chapter page, in its order; each returns the
/// data of data.hpp and prints nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cupti_timeline.cuh"
#include "data.hpp"
#include "host_registration.cuh"
#include "memory.cuh"
#include "stream_blocker.cuh"

namespace ch06 {

// --- host memory of each kind ---------------------------------------------------

/// @p bytes of host memory of one kind, every page already touched (written),
/// so no first-touch page fault lands inside a timed copy.
class HostMemory {
 public:
  /// Allocates and touches @p bytes of @p kind: the pinned kinds with cudaHostAlloc and the kind's flag.
  HostMemory(HostKind kind, std::size_t bytes);
  /// Gives pinned memory back with cudaFreeHost.
  ~HostMemory();
  HostMemory(const HostMemory&) = delete;             ///< one owner frees the pinned pages
  HostMemory& operator=(const HostMemory&) = delete;  ///< one owner frees the pinned pages
  unsigned char* data() { return pinned_ != nullptr ? pinned_ : pageable_.data(); }  ///< host pointer
  std::size_t bytes() const { return bytes_; }                                       ///< size in bytes
  HostKind kind() const { return kind_; }                                            ///< what it is

 private:
  HostKind kind_;
  std::size_t bytes_;
  std::vector<unsigned char> pageable_;
  unsigned char* pinned_ = nullptr;  // cudaHostAlloc's memory; null for pageable
};

/// Fills @p bytes at @p data with pseudo-random bytes from @p seed (fast enough for 1 GiB).
void fill_random(unsigned char* data, std::size_t bytes, std::uint64_t seed);

/// Compares @p bytes at @p actual with @p expected.
CopyCheck compare_bytes(const unsigned char* actual, const unsigned char* expected, std::size_t bytes);

/// Copies random bytes from @p source to @p device and back into @p destination
/// (poisoned with 0xFF first), then compares them: the check behind every copy
/// the chapter times. Both host buffers must hold @p bytes.
CopyCheck round_trip(HostMemory& source, unsigned char* device, HostMemory& destination, std::size_t bytes,
                     std::uint64_t seed, cudaStream_t stream);

// --- 1. bandwidth ---------------------------------------------------------------------

/// Which way a copy goes.
enum class Direction {
  host_to_device,  ///< H2D, "copy in"
  device_to_host   ///< D2H, "copy out"
};

/// Times @p reps copies of @p bytes between @p host and @p device in
/// @p direction, after one warm-up copy: each sample is one cudaMemcpyAsync on
/// @p stream between two events, and the host waits for it. With a
/// @p blocker, each sample is queued behind the held stream and then released,
/// so the events do not include the host's launch gap; they may hold other
/// GPU-side costs (section 1). Use pinned memory: a pageable copy may wait for
/// the stream inside the call. Without a blocker, each copy meets an idle GPU and
/// its events also see it arrive (chapter 03, pitfall 2).
/// Returns the samples in ms.
std::vector<double> time_copy_ms(Direction direction, unsigned char* host, unsigned char* device, std::size_t bytes,
                                 cudaStream_t stream, int reps, lab::StreamBlocker* blocker = nullptr);

/// Both directions at once, @p reps times: @p bytes from @p host_in to
/// @p device_in on @p stream and from @p device_out to @p host_out on a second
/// stream forked from @p stream with an event; one start event before both and
/// a stop event after each copy. Use pinned memory. With a @p blocker, each
/// sample is queued behind the held stream. Returns {H2D, D2H} samples in ms,
/// each from the shared start to that direction's stop.
std::pair<std::vector<double>, std::vector<double>> time_both_directions_ms(
    unsigned char* host_in, unsigned char* device_in, unsigned char* device_out, unsigned char* host_out,
    std::size_t bytes, cudaStream_t stream, int reps, lab::StreamBlocker* blocker = nullptr);

/// The sweep's sizes: 4 KiB, 16 KiB, ... up to @p largest, and @p experiment_bytes.
std::vector<std::size_t> sweep_sizes(std::size_t largest, std::size_t experiment_bytes);

/// 1. Every size of sweep_sizes(): pageable copies isolated, pinned copies
/// behind a blocked stream and isolated, both directions at once, and a round
/// trip of random bytes through each kind of memory. Reads the PCIe link of
/// device @p device_ordinal from NVML. @p hold_stream false (an instrumented
/// run, where a tool's work per call can outlast any hold) times every series isolated.
SweepRun sweep_copies(std::size_t largest, std::size_t experiment_bytes, std::uint64_t seed, int device_ordinal,
                      cudaStream_t stream, int reps, bool hold_stream = true);

// --- 2. the four combinations ---------------------------------------------------------

/// One host-to-device copy of all of @p source with cudaMemcpyAsync on
/// @p stream (@p async_call) or with cudaMemcpy (on the legacy default stream).
void copy_to_device(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream);

/// Copies @p source (random bytes) to @p device @p reps times with cudaMemcpy
/// or cudaMemcpyAsync (on @p stream), each from an idle GPU, reading a host
/// timer when the call returns and again after cudaDeviceSynchronize. Then
/// reads the device back and compares.
CallTiming time_copy_call(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream, int reps);

/// 2. The four combinations of pageable/pinned and cudaMemcpy/cudaMemcpyAsync, @p bytes each.
CallsRun compare_copy_calls(std::size_t bytes, cudaStream_t stream, int reps);

/// `--timeline` / `--trace`: one more copy of each combination, recorded by
/// CUPTI from outside, with the time the call kept the host as a span of its
/// own ('T' on the row "the call"). Does nothing unless @p timeline is wanted.
void record_copy_calls(lab::TimelineSession& timeline, std::size_t bytes, cudaStream_t stream);

// --- 3. registration: page-locking memory the program already has ---------------------

/// The reference for exercise 06 and Numba's `with cuda.pinned(array):`:
/// page-locks @p host, queues its copy to @p device on @p stream and returns at
/// once. The returned registration must live until the copy is done: unlocking
/// pages the copy engine is still reading is undefined. Synchronise @p stream,
/// then let the registration go.
HostRegistration upload_registered(std::vector<float>& host, float* device, cudaStream_t stream);

/// Measures registration of @p buffer (a pageable HostMemory, filled with random
/// bytes) over @p reps rounds of register, copy, unregister; the copy from the
/// unregistered buffer is timed too. Checks that the contents survive.
RegistrationRun time_registration(HostMemory& buffer, unsigned char* device, cudaStream_t stream, int reps);

/// 3a. time_registration() at 1 MiB, 16 MiB, ... and @p largest.
std::vector<RegistrationRun> compare_registration_sizes(std::size_t largest, cudaStream_t stream, int reps);

/// 3b. Where an upload through registered memory spends its time: a fresh
/// vector of @p bytes uploaded with cudaHostRegister, cudaMemcpyAsync,
/// cudaStreamSynchronize and cudaHostUnregister each timed on its own; the same
/// vector again @p reps times; then upload_registered() on another fresh vector.
UploadRun time_upload(std::size_t bytes, std::uint64_t seed, cudaStream_t stream, int reps);

// --- 4. CPU time freed -------------------------------------------------------------------

/// A fixed amount of CPU work (integer hashing), standing for the host's own
/// work between queuing a copy and needing its result. Returns a value that
/// depends on every step, so the compiler cannot drop it.
std::uint64_t cpu_work(std::int64_t steps);

/// How many cpu_work() steps take about @p milliseconds on this host: a first
/// estimate from one run of at least 20 ms, then the work itself timed and
/// rescaled twice (rescaled_cpu_steps(), registration_model.hpp).
std::int64_t calibrate_cpu_work(double milliseconds);

/// Where the CPU work went, relative to a host-to-device copy.
enum class Placement {
  after_nonblocking_copy,  ///< pinned + cudaMemcpyAsync, CPU work, then synchronise: they overlap
  after_pageable_copy,     ///< pageable + cudaMemcpyAsync, CPU work: the call itself waited for the copy
  after_early_sync         ///< pinned + cudaMemcpyAsync, synchronise at once ("touching the result"), CPU work
};

/// A short description of @p placement.
const char* placement_name(Placement placement);

/// Runs @p placement @p reps times (after one warm-up): a copy of @p pinned or
/// @p pageable (same size) to @p device on @p stream, and @p cpu_steps of cpu_work().
/// With @p cpu_alone_ms, the CPU work is also timed alone right before each sample
/// (interleaved: a CPU whose speed drifts over the run meets both alike).
PlacementRun time_placement(Placement placement, HostMemory& pinned, HostMemory& pageable, unsigned char* device,
                            std::int64_t cpu_steps, cudaStream_t stream, int reps,
                            std::vector<double>* cpu_alone_ms = nullptr);

/// 4. A pinned copy of @p bytes and CPU work calibrated to it, alone (the CPU work interleaved with
/// the overlapped placement's samples) and in the three placements; the pageable copy alone too.
CpuFreedRun measure_cpu_time_freed(std::size_t bytes, cudaStream_t stream, int reps);

// --- 5. write-combined and mapped memory ------------------------------------------------

/// Median GB/s of the CPU reading (summing) and writing (filling) @p memory.
struct CpuAccess {
  double read_gbps = 0;   ///< the CPU summing the buffer
  double write_gbps = 0;  ///< the CPU filling the buffer
};

/// Measures CPU reads and writes of @p memory, @p reps times each.
CpuAccess time_cpu_access(HostMemory& memory, int reps);

/// 5a. Ordinary and write-combined pinned memory of @p bytes: H2D copies
/// (behind a blocked stream unless @p hold_stream is false), CPU reads and writes, and a round trip.
WriteCombinedRun compare_write_combined(std::size_t bytes, std::uint64_t seed, cudaStream_t stream, int reps,
                                        bool hold_stream = true);

/// @p floats floats in @p mapped (a HostKind::mapped buffer): out[i] = passes x in[i],
/// the kernel sweeping the input @p passes times, its input copied first or
/// read from the mapped memory. Each variant's output is poisoned first and checked.
ZeroCopyPasses time_zero_copy(HostMemory& mapped, std::size_t floats, int passes, cudaStream_t stream, int reps);

/// 5b. Unified addressing on this device, and time_zero_copy() with 1 and 4 passes over @p bytes.
MappedRun compare_zero_copy(std::size_t bytes, cudaStream_t stream, int reps);

}  // namespace ch06
