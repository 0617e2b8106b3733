// ch03_wait_child: the child process of chapter 03, section 3.
//
// A device's scheduling flag belongs to the whole process (its primary
// context), so the chapter sets cudaDeviceScheduleBlockingSync here, in a
// process of its own, and its own flags stay as they are. This program sets the
// flag before its context exists ("before") or once it does ("after"), waits
// for a kernel on a default event, and prints one line that the chapter reads
// (ch03::wait_case_line). The lesson is ch03::wait_with_blocking_sync_flag.
//
//   usage: ch03_wait_child before|after <kernel-ms>
#include <cstdio>
#include <string>

#include "events.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  return lab::run_program("ch03_wait_child", [&] {
    const std::string when = argc == 3 ? argv[1] : "";
    if (when != "before" && when != "after") {
      std::fprintf(stderr, "usage: ch03_wait_child before|after <kernel-ms>\n");
      return lab::exit_code::usage;
    }
    const double kernel_ms = std::stod(argv[2]);
    const ch03::WaitCase measured = ch03::wait_with_blocking_sync_flag(when == "before", kernel_ms);
    std::printf("%s\n", ch03::wait_case_line(measured).c_str());
    return lab::exit_code::success;
  });
}
