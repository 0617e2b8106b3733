#include "wait_report.hpp"

#include <cstdio>
#include <sstream>

#include "vocabulary.hpp"

namespace ch03 {

std::string wait_call_name(WaitCall call) {
  const char* const names[] = {"cudaEventSynchronize", "cudaStreamSynchronize", "cudaDeviceSynchronize"};
  return names[static_cast<int>(call)];
}

bool wait_call_from_name(const std::string& name, WaitCall& into) {
  for (WaitCall call : {WaitCall::event_synchronize, WaitCall::stream_synchronize, WaitCall::device_synchronize}) {
    if (name == wait_call_name(call)) {
      into = call;
      return true;
    }
  }
  return false;
}

std::string wait_case_line(const WaitCase& measured) {
  return lab::format("ch03_wait_child wait=%s set_flags=%s flag=%s wall_ms=%.6f cpu_ms=%.6f",
                     wait_call_name(measured.call).c_str(), measured.set_flags_result.c_str(),
                     measured.device_flag.c_str(), measured.cost.wall_ms, measured.cost.cpu_ms);
}

bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("ch03_wait_child ", 0) != 0) continue;  // not the child's report
    char wait[64] = "", set_flags[64] = "", flag[64] = "";
    double wall = -1, cpu = -1;
    const int read =
        std::sscanf(line.c_str(), "ch03_wait_child wait=%63s set_flags=%63s flag=%63s wall_ms=%lf cpu_ms=%lf", wait,
                    set_flags, flag, &wall, &cpu);
    WaitCall said = WaitCall::event_synchronize;
    if (read < 1 || !wait_call_from_name(wait, said)) return false;  // a child line must say which call it measured
    if (said != call) continue;                                      // another call's line
    if (read != 5 || wall < 0 || cpu < 0) return false;
    into.call = call;
    into.set_flags_result = set_flags;
    into.device_flag = flag;
    into.cost = WaitCost{wall, cpu};
    into.measured = true;
    into.why_not.clear();
    return true;
  }
  return false;
}

}  // namespace ch03
