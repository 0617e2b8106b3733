// ch03_wait_child: the child process of chapter 03, section 3.
//
// A device's scheduling flag belongs to the whole process (its primary
// context), so the chapter sets cudaDeviceScheduleBlockingSync here, in a
// process of its own, and its own flags stay as they are. This program sets the
// flag before its context exists ("before") or once it does ("after"), waits
// for a kernel in each wait call it is given (cudaEventSynchronize on a default
// event, cudaStreamSynchronize, cudaDeviceSynchronize), one after the other,
// and prints one line per call that the chapter reads (ch03::wait_case_line, checks.hpp).
// The lesson is ch03::wait_with_blocking_sync_flag.
//
//   usage: ch03_wait_child before|after <kernel-ms> <wait call>...
#include <cstdio>
#include <string>
#include <vector>

#include "checks.hpp"
#include "events.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  return lab::run_program("ch03_wait_child", [&] {
    const std::string when = argc >= 4 ? argv[1] : "";
    std::vector<ch03::WaitCall> calls;
    for (int i = 3; i < argc; ++i) {
      ch03::WaitCall call{};
      if (!ch03::wait_call_from_name(argv[i], call)) {
        calls.clear();
        break;
      }
      calls.push_back(call);
    }
    if ((when != "before" && when != "after") || calls.empty()) {
      std::fprintf(stderr,
                   "usage: ch03_wait_child before|after <kernel-ms> "
                   "cudaEventSynchronize|cudaStreamSynchronize|cudaDeviceSynchronize...\n");
      return lab::exit_code::usage;
    }
    const double kernel_ms = std::stod(argv[2]);
    for (const ch03::WaitCase& measured : ch03::wait_with_blocking_sync_flag(when == "before", kernel_ms, calls)) {
      std::printf("%s\n", ch03::wait_case_line(measured).c_str());
    }
    return lab::exit_code::success;
  });
}
