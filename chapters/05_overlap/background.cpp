#include "background.hpp"

namespace ch05 {

std::vector<lab::Background> queue_background() {
  return {
      {"CUDA_DEVICE_MAX_CONNECTIONS sets the number of compute and copy engine concurrent connections (work queues) "
       "from the host to each device of compute capability 3.5 and above, 1 to 32 (default 8); the driver may "
       "allocate a different number. Section 3 sets it in each child process's environment.",
       "CUDA C++ Programming Guide (CUDA 12 editions), CUDA Environment Variables; GPU Deployment and Management "
       "Guide, MPS, CUDA_DEVICE_MAX_CONNECTIONS"},
      {"With more streams than connections, streams alias to connections, which can create false dependencies "
       "between them: a stream can wait for another stream's unrelated work.",
       "NVIDIA Developer Forums, \"How many streams? Maximum number of streams\" (answer by NVIDIA)"},
      {"In NVIDIA's article, V1 and V2 differed because of the hardware's queues (one copy engine on the C1060; one "
       "compute queue on the C2050, where back-to-back kernels delayed V2's copies out). Hyper-Q (compute capability "
       "3.5 and later: several hardware work queues) is why the launch order no longer needs to be tailored to the "
       "device.",
       "NVIDIA Developer Blog, \"How to Overlap Data Transfers in CUDA C/C++\" (M. Harris)"},
  };
}

}  // namespace ch05
