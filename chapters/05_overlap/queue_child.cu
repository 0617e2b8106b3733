// ch05_queue_child: the child process of chapter 05, section 3.
//
// CUDA_DEVICE_MAX_CONNECTIONS is read when a process creates its CUDA context,
// so the chapter starts this program once per connection count, with the
// variable set in its environment (or unset, for the default), and reads back
// what it prints (ch05::read_child_output): V1 and V2 of the light kernel at 4
// and 8 chunks, and two spin kernels per stream queued depth first and breadth
// first over 4, 8, 16 and 32 streams. The lesson is ch05::measure_queues_as_text.
//
//   usage: ch05_queue_child <mib> <reps>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "overlap.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  return lab::run_program("ch05_queue_child", [&] {
    const int mib = argc == 3 ? std::atoi(argv[1]) : 0;
    const int reps = argc == 3 ? std::atoi(argv[2]) : 0;
    if (mib < 1 || mib > 65536 || reps < 1 || reps > 1000) {
      std::fprintf(stderr, "usage: ch05_queue_child <mib 1..65536> <reps 1..1000>\n");
      return lab::exit_code::usage;
    }
    std::printf("%s", ch05::measure_queues_as_text(mib, reps).c_str());
    return lab::exit_code::success;
  });
}
