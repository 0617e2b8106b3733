// ch08_fault_child: the child process of chapter 08, section 5.
//
// A kernel that faults leaves its process's context unusable (the error is
// sticky), so the chapter runs it here, in a process of its own, and carries
// on. This program times a few correct launches, launches a kernel that stores
// outside every allocation, and prints one line (ch08::fault_line) saying what
// the launch, cudaDeviceSynchronize and the calls after them returned. The
// chapter starts it twice, with CUDA_LAUNCH_BLOCKING=0 and =1.
// The lesson is ch08::provoke_kernel_fault.
//
//   usage: ch08_fault_child
#include <cstdio>

#include "checks.hpp"
#include "launch_graphs.cuh"
#include "program.hpp"

int main(int argc, char**) {
  return lab::run_program("ch08_fault_child", [&] {
    if (argc != 1) {
      std::fprintf(stderr, "usage: ch08_fault_child (no arguments)\n");
      return lab::exit_code::usage;
    }
    std::printf("%s\n", ch08::fault_line(ch08::provoke_kernel_fault(200)).c_str());
    return lab::exit_code::success;
  });
}
