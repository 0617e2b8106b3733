/// @file data.hpp
/// @brief Chapter 06's data: the structs the experiments of pinned.cuh return,
/// one per section of the page. tables.hpp prints them, checks.hpp judges them;
/// tests/ch06_checks_test.cpp tests both on hand-made data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ch06 {

/// The kinds of host memory the chapter compares.
enum class HostKind {
  pageable,        ///< ordinary memory (std::vector): the driver stages every copy
  pinned,          ///< cudaMallocHost / cudaHostAlloc: page-locked, the copy engine reads it directly
  write_combined,  ///< cudaHostAlloc(cudaHostAllocWriteCombined): pinned, not cached by the CPU
  mapped           ///< cudaHostAlloc(cudaHostAllocMapped): pinned and addressable by kernels ("zero-copy")
};

/// A short name for @p kind, e.g. "pageable".
inline const char* host_kind_name(HostKind kind) {
  constexpr const char* kNames[] = {"pageable", "pinned", "write-combined", "mapped"};  // in HostKind's order
  return kNames[static_cast<int>(kind)];
}

/// Whether a copy arrived: the first differing byte when it did not.
struct CopyCheck {
  std::size_t bytes = 0;             ///< bytes compared
  std::size_t first_difference = 0;  ///< offset of the first differing byte (when !intact)
  bool intact = false;               ///< every byte arrived
  std::string detail() const;        ///< "268435456 bytes intact" or "byte 17 differs (of 4096)" (checks.cpp)
};

/// Every copy of one size, each series one sample per rep, in ms.
struct SizeSamples {
  std::size_t bytes = 0;                       ///< bytes per copy
  std::vector<double> pageable_h2d_ms;         ///< isolated: the call itself stages pageable data
  std::vector<double> pageable_d2h_ms;         ///< isolated
  std::vector<double> pinned_h2d_ms;           ///< behind a blocked stream: no launch gap in the pair
  std::vector<double> pinned_d2h_ms;           ///< behind a blocked stream
  std::vector<double> pinned_h2d_isolated_ms;  ///< isolated: one copy into an idle stream, the host waiting after each
  std::vector<double> pinned_d2h_isolated_ms;  ///< isolated
  std::vector<double> both_h2d_ms;  ///< both directions at once: from the shared start event to the H2D copy's stop
  std::vector<double> both_d2h_ms;  ///< the same run: from the shared start event to the D2H copy's stop
  CopyCheck pageable_check;         ///< random bytes there and back through pageable memory
  CopyCheck pinned_check;           ///< the same through pinned memory
};

/// The sweep: sizes from 4 KiB up, and the link they cross.
struct SweepRun {
  std::vector<SizeSamples> sizes;    ///< smallest first
  std::size_t experiment_bytes = 0;  ///< --mib: the size the other sections use (one of the sizes)
  bool blocked = true;               ///< false: the blocked stream was not usable, pinned series are isolated too
  std::string why_not_blocked;       ///< why not, when !blocked
  int pcie_generation = 0;           ///< highest PCIe generation of GPU and slot (NVML); 0 unknown
  int pcie_width = 0;                ///< most lanes
  int pcie_generation_now = 0;       ///< in use now
  int pcie_width_now = 0;            ///< in use now
  double link_gbps = 0;              ///< the link's data rate per direction after line encoding; 0 unknown
  int copy_engines = 0;  ///< the device's asyncEngineCount; with 1, both directions at once is observed, not judged
  bool pageable_uses_host_page_tables = false;  ///< cudaDevAttrPageableMemoryAccessUsesHostPageTables: pinned_faster
                                                ///< is observed, not judged
};

/// When a host-to-device copy call returned, and when the copy was done.
struct CallTiming {
  HostKind memory = HostKind::pageable;  ///< where the source was
  bool async_call = false;               ///< cudaMemcpyAsync (true) or cudaMemcpy
  std::vector<double> returned_ms;       ///< host time until the call returned, each rep
  std::vector<double> done_ms;           ///< host time until cudaDeviceSynchronize returned after it
  CopyCheck check;                       ///< the last copy, read back and compared with the source
};

/// The four combinations of memory and call, one copy size.
struct CallsRun {
  std::size_t bytes = 0;          ///< bytes per copy
  std::vector<CallTiming> calls;  ///< pageable cudaMemcpy, pageable cudaMemcpyAsync, pinned cudaMemcpy, pinned Async
};

/// Registration of one pageable buffer, over several rounds.
struct RegistrationRun {
  std::size_t bytes = 0;                   ///< size of the buffer
  std::vector<double> register_ms;         ///< cudaHostRegister, each round
  std::vector<double> unregister_ms;       ///< cudaHostUnregister, each round
  std::vector<double> pageable_copy_ms;    ///< H2D from the buffer unregistered (events, isolated)
  std::vector<double> registered_copy_ms;  ///< H2D from the buffer registered (events, isolated)
  CopyCheck contents;                      ///< the buffer after the rounds, against its first contents
  CopyCheck copied;                        ///< the registered copy read back from the device
};

/// The phases of one upload through registered memory, each timed on its own with a host timer.
struct UploadPhases {
  double first_touch_ms = 0;  ///< constructing the std::vector: allocation and zeroing, every page touched once
  double register_ms = 0;     ///< cudaHostRegister
  double call_ms = 0;         ///< cudaMemcpyAsync, until it returned
  double wait_ms = 0;         ///< cudaStreamSynchronize, until the copy was done
  double unregister_ms = 0;   ///< cudaHostUnregister
};

/// Where ch06::upload_registered's time goes.
struct UploadRun {
  std::size_t bytes = 0;               ///< bytes uploaded
  UploadPhases fresh;                  ///< a fresh vector, the calls one by one
  std::vector<UploadPhases> repeated;  ///< the same vector again, one entry per round (first_touch_ms 0)
  double lesson_first_touch_ms = 0;    ///< another fresh vector, for upload_registered itself
  double lesson_returned_ms = 0;       ///< upload_registered(), until it returned
  double lesson_done_ms = 0;           ///< ... until the stream was done and the registration let go
  bool correct = false;                ///< every upload arrived and no vector changed
  std::string detail;                  ///< the comparisons
};

/// A copy and CPU work placed one way, each rep's wall time.
struct PlacementRun {
  std::string name;             ///< e.g. "pinned, cudaMemcpyAsync, CPU work, sync"
  std::vector<double> wall_ms;  ///< from the copy call until both were done
  CopyCheck check;              ///< the copy read back
};

/// Section 4's data.
struct CpuFreedRun {
  std::size_t bytes = 0;                 ///< bytes per copy
  std::vector<double> copy_ms;           ///< the pinned copy alone (events)
  std::vector<double> pageable_copy_ms;  ///< the pageable copy alone (events, isolated)
  std::vector<double> cpu_ms;            ///< the CPU work alone (host timer), each right before an overlapped sample
  PlacementRun overlapped;               ///< pinned, cudaMemcpyAsync, CPU work, sync
  PlacementRun pageable;                 ///< pageable, cudaMemcpyAsync, CPU work, sync
  PlacementRun early_sync;               ///< pinned, cudaMemcpyAsync, sync, CPU work
};

/// Ordinary and write-combined pinned memory side by side.
struct WriteCombinedRun {
  std::size_t bytes = 0;              ///< buffer size
  std::vector<double> pinned_h2d_ms;  ///< H2D from ordinary pinned memory (blocked stream)
  std::vector<double> wc_h2d_ms;      ///< H2D from write-combined memory (blocked stream)
  double pinned_read_gbps = 0;        ///< the CPU summing ordinary pinned memory
  double pinned_write_gbps = 0;       ///< the CPU filling it
  double wc_read_gbps = 0;            ///< the CPU summing write-combined memory
  double wc_write_gbps = 0;           ///< the CPU filling it
  CopyCheck round_trip;               ///< random bytes through write-combined memory and back
};

/// One kernel, its input read @p passes times: copied first, or read from mapped memory.
struct ZeroCopyPasses {
  int passes = 1;                           ///< how many times the kernel reads its input
  std::vector<double> copy_then_kernel_ms;  ///< H2D copy, then the kernel on device memory (events)
  std::vector<double> zero_copy_ms;         ///< the kernel reading mapped host memory (events)
  bool correct = false;                     ///< both outputs equal passes x input, exactly
  std::string detail;                       ///< the comparisons
};

/// Section 5b's data.
struct MappedRun {
  std::size_t bytes = 0;                          ///< input size
  bool unified_addressing = false;                ///< cudaDevAttrUnifiedAddressing of the device
  bool plain_pinned_device_pointer_same = false;  ///< a cudaHostAlloc buffer, not mapped: device address = host's
  std::vector<ZeroCopyPasses> passes;             ///< 1 and 4 passes
};

}  // namespace ch06
