/// @file findings.hpp
/// @brief Chapter 09's data and what it concludes from it.
///
/// The structs are what the experiments of multi_gpu.cuh return, one per
/// section of the chapter page. The functions turn them into tables (every
/// number declared once, printed and written to the JSON by lab::Report) and
/// into findings (checks, and what was skipped). Plain C++
/// with no CUDA header: tests/ch09_findings_test.cpp checks every branch on
/// hand-made data, on any machine.
///
/// A section that needs two GPUs and finds one returns its struct with
/// `skipped` set to the reason; its findings then say that it was skipped and
/// why (lab::skipped), and summary_findings() names every such section ("partly skipped").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace ch09 {

/// The devices the chapter uses: the first `used` of the `visible` ones.
struct DeviceSet {
  int visible = 0;                 ///< cudaGetDeviceCount
  int used = 0;                    ///< --devices (0 meant all)
  std::vector<std::string> names;  ///< the name of each device used
};

/// One row per device in use: its ordinal and name, and how many the machine shows.
lab::ResultTable devices_table(const DeviceSet& devices);

/// "" when @p devices holds at least two GPUs; otherwise why a two-GPU section is skipped,
/// e.g. "needs 2 GPUs; this machine shows 1".
std::string two_gpu_reason(const DeviceSet& devices);

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

/// Each probe's call, situation, what the guide says, what it returned and whether the two agree: the
/// invalid device on any machine; with two GPUs also the current device per thread, the buffer's device
/// and the calls across devices.
lab::ResultTable ownership_table(const OwnershipRun& run);
/// Checks: the invalid device fails, the copy across devices arrives, the devices are usable afterwards.
std::vector<lab::Finding> ownership_findings(const OwnershipRun& run);

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

/// The NVLink version an nvmlNvlinkVersion_t value stands for ("4.0" for 6).
std::string nvlink_version_text(int nvml_version);
/// Per device: can it access each other device, its NVLinks; and, when NVML
/// reported pairs, the link of each pair (table "links").
std::vector<lab::ResultTable> peer_matrix_tables(const PeerMatrix& matrix);
/// Nothing with two GPUs or more (the matrix is the table); with one, that peer access was skipped.
std::vector<lab::Finding> peer_matrix_findings(const PeerMatrix& matrix);

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

/// Each way of moving the bytes: time, GB/s and the rate against peer access on; none when the section was skipped.
std::vector<lab::ResultTable> peer_copy_tables(const PeerCopyRun& run);
/// Correctness, and a timing check (peer copy beats staging through the host).
std::vector<lab::Finding> peer_copy_findings(const PeerCopyRun& run);

// --- 3. Ordering across devices -----------------------------------------------------

/// A producer on GPU 0 and a consumer on GPU 1 that reads the producer's buffer.
struct OrderingRun {
  std::string skipped;                            ///< "" when it ran; else why not
  std::int64_t n = 0;                             ///< floats the producer writes
  double producer_ms = 0;                         ///< the producer spins this long before it writes
  std::vector<std::int64_t> stale_without_event;  ///< per run: elements the consumer read before the write
  std::vector<std::int64_t> stale_with_event;     ///< per run, cudaStreamWaitEvent on the producer's event
};

/// The two ways, with stale elements per run; none when the section was skipped.
std::vector<lab::ResultTable> ordering_tables(const OrderingRun& run);
/// A correctness check: no stale element with the event (the table shows the runs without it).
std::vector<lab::Finding> ordering_findings(const OrderingRun& run);

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

/// The bound of a pipeline over @p devices GPUs: the largest of the bytes in
/// over the host-to-device rate, the bytes out over the device-to-host rate
/// (for one GPU its rate alone, for several their rate together) and the
/// kernel's time divided over the GPUs. 0 when a rate is missing.
double pipeline_bound_ms(const PipelineRun& run, int devices);
/// Each GPU's host link alone and all at once (that rate as a share of the sum of the rates alone).
lab::ResultTable host_link_table(const HostLinkRun& link);
/// Each variant: time, bound, the fastest run against its bound, speed-up over one GPU and what the bounds allow.
lab::ResultTable pipeline_table(const PipelineRun& run);
/// Correctness of each variant; the split skipped on one GPU.
std::vector<lab::Finding> pipeline_findings(const PipelineRun& run);

// --- 5. One GPU only ----------------------------------------------------------------

/// The sections that were skipped in whole or in part, and why: one finding
/// named "partly skipped" (the tour lists it), or one that says every section ran.
std::vector<lab::Finding> summary_findings(const OwnershipRun& ownership, const PeerCopyRun& copies,
                                           const OrderingRun& ordering, const PipelineRun& pipeline);

/// The name of the finding the tour looks for.
inline const char* partly_skipped_name() { return "partly skipped"; }

}  // namespace ch09
