// ch10_capture_child: a child process of chapter 10, section 5.
//
// A call made during stream capture may be refused, and a refusal invalidates
// the capture (and, for global mode, the rules reach other threads too), so the
// chapter makes each call in a process of its own: this program begins a
// capture in the mode given, queues a kernel, makes the call, and prints one
// line (ch10::capture_line) saying what the call returned, the capture's status
// after it, what cudaStreamEndCapture returned and whether its graph was NULL,
// and whether a kernel, a copy and a sync still worked. The chapter starts it
// once per (mode, call). The lesson is ch10::probe_capture_call.
//
//   usage: ch10_capture_child --mode global|thread_local|relaxed --call NAME
//          ch10_capture_child --mode none --call event_record_external_outside_capture
#include <algorithm>
#include <cstdio>
#include <string>

#include "capture_rules.cuh"
#include "checks.hpp"
#include "program.hpp"

namespace {

bool known(const std::string& mode, const std::string& call) {
  if (mode == "none" || call == ch10::kOutsideCaptureCall) return mode == "none" && call == ch10::kOutsideCaptureCall;
  const auto& modes = ch10::capture_mode_names();
  const auto& calls = ch10::capture_call_names();
  return std::find(modes.begin(), modes.end(), mode) != modes.end() &&
         std::find(calls.begin(), calls.end(), call) != calls.end();
}

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program("ch10_capture_child", [&] {
    const bool shaped = argc == 5 && std::string(argv[1]) == "--mode" && std::string(argv[3]) == "--call";
    if (!shaped || !known(argv[2], argv[4])) {
      std::fprintf(stderr,
                   "usage: ch10_capture_child --mode global|thread_local|relaxed --call NAME\n"
                   "       ch10_capture_child --mode none --call %s\n",
                   ch10::kOutsideCaptureCall);
      return lab::exit_code::usage;
    }
    std::printf("%s\n", ch10::capture_line(ch10::probe_capture_call(argv[2], argv[4])).c_str());
    return lab::exit_code::success;
  });
}
