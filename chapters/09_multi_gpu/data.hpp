/// @file data.hpp
/// @brief What chapter 09's experiments (multi_gpu.cuh) return, one struct per
/// section of the chapter page. A section that needs two GPUs and finds one
/// returns its struct with `skipped` set to the reason. checks.hpp judges
/// them, tables.hpp prints them. Plain C++ with no CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch09 {

/// The devices the chapter uses: the first `used` of the `visible` ones.
struct DeviceSet {
  int visible = 0;                 ///< cudaGetDeviceCount
  int used = 0;                    ///< --devices (0 meant all)
  std::vector<std::string> names;  ///< the name of each device used
};

// --- 1. What belongs to a device -------------------------------------------------

/// One CUDA call made in a multi-device situation, and what it returned.
struct CallProbe {
  std::string call;           ///< e.g. "kernel launch into a stream of GPU 1"
  std::string situation;      ///< e.g. "GPU 0 current"
  bool documented_ok = true;  ///< does the Programming Guide say it succeeds?
  std::string returned;       ///< cudaGetErrorName of what it returned, e.g. "cudaSuccess"
};

/// Section 1: the current device, where memory, streams and events belong, and
/// the calls that fail or succeed across devices.
struct OwnershipRun {
  std::string skipped;                ///< "" when the two-GPU probes ran; else why not
  int visible = 0;                    ///< cudaGetDeviceCount
  std::string set_invalid_device;     ///< what cudaSetDevice(visible) returned (any machine)
  int main_thread_device = -1;        ///< cudaGetDevice in the main thread after cudaSetDevice(1)
  int new_thread_device = -1;         ///< cudaGetDevice in a thread started after that
  int buffer_device = -1;             ///< cudaPointerGetAttributes(...).device of memory allocated on GPU 1
  std::vector<CallProbe> calls;       ///< the cross-device calls, in order
  bool devices_usable_after = false;  ///< every device synchronised with cudaSuccess after the probes
  lab::Comparison cross_copy;         ///< the copy queued on GPU 1's stream from GPU 0, against what was sent
};

// --- 2. Peer access ----------------------------------------------------------------

/// What NVML says about the link between two GPUs.
struct PairLink {
  int from = 0;                 ///< CUDA ordinal
  int to = 1;                   ///< CUDA ordinal
  std::string common_ancestor;  ///< nvmlDeviceGetTopologyCommonAncestor, e.g. "same board" or "" when unknown
  std::string p2p_read;         ///< nvmlDeviceGetP2PStatus(READ), e.g. "OK" or "" when unknown
  std::string p2p_nvlink;       ///< nvmlDeviceGetP2PStatus(NVLINK)
};

/// What NVML says about one GPU's NVLinks.
struct DeviceLinks {
  int device = 0;           ///< CUDA ordinal
  int nvlinks_active = -1;  ///< links nvmlDeviceGetNvLinkState reports active; -1 unknown
  int nvlink_version = -1;  ///< nvmlDeviceGetNvLinkVersion of the first active link; -1 unknown
};

/// cudaDeviceCanAccessPeer for every ordered pair, and the links as NVML reports them.
struct PeerMatrix {
  int devices = 0;                 ///< devices in the matrix
  std::vector<int> can_access;     ///< [from * devices + to]: 1 yes, 0 no (diagonal 1)
  std::string nvml_missing;        ///< why NVML said nothing ("" when it answered)
  std::vector<DeviceLinks> links;  ///< one per device, when NVML answered
  std::vector<PairLink> pairs;     ///< one per unordered pair, when NVML answered
};

/// The same bytes moved from GPU 0 to GPU 1 several ways, and a kernel reading across.
struct PeerCopyRun {
  std::string skipped;                  ///< "" when it ran; else why not
  std::string peer_on_skipped;          ///< why the peer-access rows are missing ("" when measured)
  double bytes = 0;                     ///< bytes per copy
  std::vector<double> peer_on_ms;       ///< cudaMemcpyPeerAsync, peer access enabled both ways
  std::vector<double> peer_off_ms;      ///< cudaMemcpyPeerAsync, after cudaDeviceDisablePeerAccess
  std::vector<double> staged_ms;        ///< GPU 0 -> pinned host -> GPU 1, the copy written out
  std::vector<double> both_ways_ms;     ///< 0 -> 1 and 1 -> 0 at once, peer access on (bytes each way)
  std::vector<double> kernel_local_ms;  ///< a kernel on GPU 1 reading GPU 1's memory
  std::vector<double> kernel_peer_ms;   ///< the same kernel reading GPU 0's memory through peer access
  lab::Comparison copy_result;          ///< what arrived on GPU 1, against what GPU 0 held
  lab::Comparison kernel_result;        ///< the kernel's output from GPU 0's memory, against the CPU
};

// --- 3. Ordering across devices -----------------------------------------------------

/// A producer on GPU 0 and a consumer on GPU 1 that reads the producer's buffer.
struct OrderingRun {
  std::string skipped;                            ///< "" when it ran; else why not
  std::int64_t n = 0;                             ///< floats the producer writes
  double producer_ms = 0;                         ///< the producer spins this long before it writes
  std::vector<std::int64_t> stale_without_event;  ///< per run: elements the consumer read before the write
  std::vector<std::int64_t> stale_with_event;     ///< per run, cudaStreamWaitEvent on the producer's event
};

// --- 4. Splitting work over GPUs ----------------------------------------------------

/// Host-link rates measured in the same run: each GPU alone, then all at once.
struct HostLinkRun {
  double bytes = 0;                    ///< bytes per GPU per copy
  std::vector<double> h2d_alone_gbps;  ///< per device, pinned host -> device, alone (median)
  std::vector<double> d2h_alone_gbps;  ///< per device, device -> pinned host, alone (median)
  double h2d_together_gbps = 0;        ///< all devices at once, bytes of all of them (median); 0: one GPU
  double d2h_together_gbps = 0;        ///< the same, device -> host
};

/// One way of running the pipeline.
struct PipelineVariant {
  int devices = 1;         ///< GPUs the chunks are spread over
  std::vector<double> ms;  ///< host wall time, all devices synchronised before and after
  double bound_ms = 0;     ///< the bound from the same run (pipeline_bound_ms)
  lab::Comparison result;  ///< the output, against the CPU
};

/// Copy in / kernel / copy out in chunks, the chunks dealt over the GPUs.
struct PipelineRun {
  std::string skipped;                    ///< "" when several GPUs ran; else why only one did
  std::int64_t n = 0;                     ///< floats in and out
  int chunks = 0;                         ///< chunks the data is cut into
  double kernel_ms = 0;                   ///< the kernel over all n on GPU 0 alone (median of event pairs)
  HostLinkRun link;                       ///< the host link, same run
  std::vector<PipelineVariant> variants;  ///< one GPU first, then all of them
};

}  // namespace ch09
