#include <cuda_runtime.h>
#include <dlfcn.h>  // dlopen: NVML without linking it

#include "nvml_link.cuh"

namespace ch09 {

namespace {

// NVML's types and constants as nvml.h declares them (only those used here).
using NvmlDevice = void*;             // nvmlDevice_t
constexpr int kNvmlSuccess = 0;       // NVML_SUCCESS
constexpr unsigned kMaxNvLinks = 18;  // NVML_NVLINK_MAX_LINKS
constexpr int kP2pCapsRead = 0;       // NVML_P2P_CAPS_INDEX_READ
constexpr int kP2pCapsNvlink = 2;     // NVML_P2P_CAPS_INDEX_NVLINK
constexpr int kFeatureEnabled = 1;    // NVML_FEATURE_ENABLED

// nvmlGpuTopologyLevel_t in words.
std::string topology_level(int level) {
  switch (level) {
    case 0: return "same board";                      // NVML_TOPOLOGY_INTERNAL
    case 10: return "one PCIe switch";                // NVML_TOPOLOGY_SINGLE
    case 20: return "several PCIe switches";          // NVML_TOPOLOGY_MULTIPLE
    case 30: return "one PCIe host bridge";           // NVML_TOPOLOGY_HOSTBRIDGE
    case 40: return "host bridges of one NUMA node";  // NVML_TOPOLOGY_NODE
    case 50: return "across NUMA nodes (SMP link)";   // NVML_TOPOLOGY_SYSTEM
    default: return "level " + std::to_string(level);
  }
}

// nvmlGpuP2PStatus_t in words.
std::string p2p_status(int status) {
  switch (status) {
    case 0: return "OK";                        // NVML_P2P_STATUS_OK
    case 1: return "chipset not supported";     // NVML_P2P_STATUS_CHIPSET_NOT_SUPPORED
    case 2: return "GPU not supported";         // NVML_P2P_STATUS_GPU_NOT_SUPPORTED
    case 3: return "topology not supported";    // NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED
    case 4: return "disabled by registry key";  // NVML_P2P_STATUS_DISABLED_BY_REGKEY
    case 5: return "not supported";             // NVML_P2P_STATUS_NOT_SUPPORTED
    default: return "unknown";                  // NVML_P2P_STATUS_UNKNOWN
  }
}

}  // namespace

void read_nvml_links(PeerMatrix& matrix) noexcept {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    matrix.nvml_missing = "libnvidia-ml.so.1 could not be opened";
    return;
  }
  auto init = reinterpret_cast<int (*)()>(dlsym(library, "nvmlInit_v2"));
  auto shutdown = reinterpret_cast<int (*)()>(dlsym(library, "nvmlShutdown"));
  if (init == nullptr || shutdown == nullptr || init() != kNvmlSuccess) {
    matrix.nvml_missing = "nvmlInit_v2 failed";
    dlclose(library);
    return;
  }
  auto by_bus_id =
      reinterpret_cast<int (*)(const char*, NvmlDevice*)>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
  auto ancestor =
      reinterpret_cast<int (*)(NvmlDevice, NvmlDevice, int*)>(dlsym(library, "nvmlDeviceGetTopologyCommonAncestor"));
  auto p2p = reinterpret_cast<int (*)(NvmlDevice, NvmlDevice, int, int*)>(dlsym(library, "nvmlDeviceGetP2PStatus"));
  auto link_state = reinterpret_cast<int (*)(NvmlDevice, unsigned, int*)>(dlsym(library, "nvmlDeviceGetNvLinkState"));
  auto link_version =
      reinterpret_cast<int (*)(NvmlDevice, unsigned, unsigned*)>(dlsym(library, "nvmlDeviceGetNvLinkVersion"));

  // NVML numbers GPUs its own way: match CUDA's ordinals by PCI bus id.
  std::vector<NvmlDevice> handles(matrix.devices, nullptr);
  for (int d = 0; d < matrix.devices; ++d) {
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, d) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (by_bus_id != nullptr && by_bus_id(bus_id, &handles[d]) != kNvmlSuccess) handles[d] = nullptr;
  }
  for (int d = 0; d < matrix.devices; ++d) {
    DeviceLinks links;
    links.device = d;
    if (handles[d] != nullptr && link_state != nullptr) {
      links.nvlinks_active = 0;
      for (unsigned link = 0; link < kMaxNvLinks; ++link) {
        int active = 0;
        if (link_state(handles[d], link, &active) != kNvmlSuccess || active != kFeatureEnabled) continue;
        ++links.nvlinks_active;
        unsigned version = 0;
        if (links.nvlink_version < 0 && link_version != nullptr &&
            link_version(handles[d], link, &version) == kNvmlSuccess)
          links.nvlink_version = static_cast<int>(version);
      }
    }
    matrix.links.push_back(links);
  }
  for (int a = 0; a < matrix.devices; ++a)
    for (int b = a + 1; b < matrix.devices; ++b) {
      PairLink pair;
      pair.from = a;
      pair.to = b;
      if (handles[a] != nullptr && handles[b] != nullptr) {
        int value = 0;
        if (ancestor != nullptr && ancestor(handles[a], handles[b], &value) == kNvmlSuccess)
          pair.common_ancestor = topology_level(value);
        if (p2p != nullptr && p2p(handles[a], handles[b], kP2pCapsRead, &value) == kNvmlSuccess)
          pair.p2p_read = p2p_status(value);
        if (p2p != nullptr && p2p(handles[a], handles[b], kP2pCapsNvlink, &value) == kNvmlSuccess)
          pair.p2p_nvlink = p2p_status(value);
      }
      matrix.pairs.push_back(pair);
    }
  if (by_bus_id == nullptr || handles.empty() || handles[0] == nullptr)
    matrix.nvml_missing = "NVML did not find the GPUs by their PCI bus ids";
  shutdown();
  dlclose(library);
}

}  // namespace ch09
