#include "wait_report.hpp"

#include "child_process.hpp"
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
  return lab::format("ch03_wait_child %s %s %s %.6f %.6f", wait_call_name(measured.call).c_str(),
                     measured.set_flags_result.c_str(), measured.device_flag.c_str(), measured.cost.wall_ms,
                     measured.cost.cpu_ms);
}

bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into) {
  WaitCase got = into;
  std::string name;
  const bool found = lab::find_child_line(text, "ch03_wait_child", [&](std::istream& words) {
    return words >> name >> got.set_flags_result >> got.device_flag >> got.cost.wall_ms >> got.cost.cpu_ms &&
           name == wait_call_name(call) && got.cost.wall_ms >= 0 && got.cost.cpu_ms >= 0;
  });
  if (!found) return false;
  into = got;
  into.call = call;
  into.measured = true;
  into.why_not.clear();
  return true;
}

}  // namespace ch03
