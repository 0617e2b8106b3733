/// @file host_work.cuh
/// @brief Section 4's lesson: host work inside a stream. A chain of K short
/// kernels run three ways: back to back, with a cudaLaunchHostFunc between
/// each pair, and with a host thread that waits on an event after each kernel
/// and then releases the stream (cuStreamWaitValue32 on a pinned flag). Every
/// block records %globaltimer at its start and end and its %smid, so the GPU's
/// idle gap between two kernels is read from the GPU's own clock.
///
/// Also what sections 3 and 5 share: the timed spin kernel, the check of a
/// driver API call (LAB_CHECK_CU) and the query for stream memory operations.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "checks_host.hpp"
#include "device.cuh"

namespace ch11 {

/// The driver API functions this chapter calls, found at run time through the
/// runtime (cudaGetDriverEntryPointByVersion), as common/harness/nvml.cu opens NVML:
/// the program does not link libcuda, so it still starts (and exits 77) on a
/// machine without a driver. A function the driver lacks is null.
struct DriverApi {
  decltype(&::cuGetErrorName) cuGetErrorName = nullptr;                            ///< a CUresult's name
  decltype(&::cuGetErrorString) cuGetErrorString = nullptr;                        ///< its description
  decltype(&::cuDeviceGet) cuDeviceGet = nullptr;                                  ///< a CUdevice from an ordinal
  decltype(&::cuStreamWaitValue32) cuStreamWaitValue32 = nullptr;                  ///< section 4 and 5's wait
  decltype(&::cuStreamDestroy) cuStreamDestroy = nullptr;                          ///< a green context's stream
  decltype(&::cuDeviceGetDevResource) cuDeviceGetDevResource = nullptr;            ///< section 3
  decltype(&::cuDevSmResourceSplitByCount) cuDevSmResourceSplitByCount = nullptr;  ///< section 3
  decltype(&::cuDevResourceGenerateDesc) cuDevResourceGenerateDesc = nullptr;      ///< section 3
  decltype(&::cuGreenCtxCreate) cuGreenCtxCreate = nullptr;                        ///< section 3
  decltype(&::cuGreenCtxStreamCreate) cuGreenCtxStreamCreate = nullptr;            ///< section 3
  decltype(&::cuGreenCtxDestroy) cuGreenCtxDestroy = nullptr;                      ///< section 3
};

/// The driver's functions, looked up once (for the ABI of the CUDA this program was built with).
const DriverApi& driver();

/// A CUDA driver API call failed.
class DriverError : public std::runtime_error {
 public:
  /// @p call is the call's source text.
  DriverError(CUresult result, const char* call, const char* file, int line);
  CUresult result() const { return result_; }  ///< the driver's code

 private:
  CUresult result_;
};

/// Throws ch11::DriverError unless @p result is CUDA_SUCCESS. Use through LAB_CHECK_CU.
inline void check_cu(CUresult result, const char* call, const char* file, int line) {
  if (result != CUDA_SUCCESS) throw DriverError(result, call, file, line);
}

/// Launches @p blocks blocks of @p threads threads of the timed spin kernel on
/// @p stream: each block spins @p spin_ns from its start and writes its record
/// to @p records[blockIdx.x]; block 0 sets *@p started to 1 (when not null)
/// as it begins, so the host can tell the kernel is running.
void launch_timed_spin(int blocks, int threads, long long spin_ns, BlockRecord* records, int* started,
                       cudaStream_t stream);

/// The threads per block of a kernel that fills an SM with two blocks: half the
/// SM's resident threads (1024 on the H100), so a stray warp on an SM keeps one
/// of its two blocks out.
int half_sm_threads();

/// How many blocks of launch_timed_spin's kernel with @p threads threads fit on one SM (occupancy).
int timed_spin_blocks_per_sm(int threads);

/// Can the current device run cuStreamWaitValue32 on pinned host memory? When
/// not, @p reason says why (the answer of a probe: a wait already satisfied).
bool stream_memops_supported(std::string* reason);

/// The most kernels of the chain queued behind a held stream (with a host call
/// between each pair, twice as many entries: well inside the launch queue).
inline constexpr int kMaxHeldChain = 200;

/// 4. The chain of @p kernels kernels of @p kernel_us (one block per SM of
/// @p device) three ways, @p samples times each; held behind lab::StreamBlocker
/// unless @p instrumented.
HostChainRun run_host_chain(int kernels, double kernel_us, int samples, bool instrumented,
                            const lab::DeviceInfo& device);

}  // namespace ch11

/// Wraps a CUDA driver API call: `LAB_CHECK_CU(driver().cuStreamWaitValue32(stream, flag, 1, 0));`
#define LAB_CHECK_CU(call) ::ch11::check_cu((call), #call, __FILE__, __LINE__)
