#include "fault_line.hpp"

#include <sstream>

#include "vocabulary.hpp"

namespace ch08 {

namespace {

constexpr char kChild[] = "ch08_fault_child";

}  // namespace

std::string fault_line(const FaultReport& r) {
  return lab::format("%s %d %s %s %s %s %s %.3f", kChild, r.launch_blocking ? 1 : 0, r.launch_error.c_str(),
                     r.sync_error.c_str(), r.later_last_error.c_str(), r.later_malloc.c_str(), r.later_kernel.c_str(),
                     r.launch_call_us);
}

bool read_fault_line(const std::string& text, FaultReport& into) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string child;
    int blocking = 0;
    FaultReport r = into;
    if (!(words >> child >> blocking >> r.launch_error >> r.sync_error >> r.later_last_error >> r.later_malloc >>
          r.later_kernel >> r.launch_call_us) ||
        child != kChild)
      continue;
    r.launch_blocking = blocking == 1;
    r.measured = true;
    r.why_not.clear();
    into = r;
    return true;
  }
  return false;
}

}  // namespace ch08
