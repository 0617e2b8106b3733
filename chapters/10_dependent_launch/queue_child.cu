// ch10_queue_child: a child process of chapter 10, section 6.
//
// CUDA_SCALE_LAUNCH_QUEUES, if the driver honours it, is read when a process
// creates its CUDA context, so the chapter starts this program once per value,
// with the variable set in its environment (or removed, for the default). It
// fills the launch queue with chapter 08's fill_launch_queue and prints one
// line (ch10::queue_line): the value it read, the depth (launches before the
// first call that waited for room), the median launch call and the waiting
// call's length. The lesson is ch10::measure_queue_depth.
//
//   usage: ch10_queue_child <max launches 16..65536>
#include <cstdio>
#include <cstdlib>

#include "checks.hpp"
#include "program.hpp"
#include "queue_scale.cuh"

int main(int argc, char** argv) {
  return lab::run_program("ch10_queue_child", [&] {
    const long long launches = argc == 2 ? std::atoll(argv[1]) : 0;
    if (launches < 16 || launches > 65536) {
      std::fprintf(stderr, "usage: ch10_queue_child <max launches 16..65536>\n");
      return lab::exit_code::usage;
    }
    std::printf("%s\n", ch10::queue_line(ch10::measure_queue_depth(launches)).c_str());
    return lab::exit_code::success;
  });
}
