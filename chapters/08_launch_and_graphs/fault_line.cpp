#include "fault_line.hpp"

#include <istream>

#include "child_process.hpp"
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
  return lab::find_child_line(text, kChild, [&](std::istream& words) {
    int blocking = 0;
    FaultReport r = into;
    if (!(words >> blocking >> r.launch_error >> r.sync_error >> r.later_last_error >> r.later_malloc >>
          r.later_kernel >> r.launch_call_us))
      return false;
    r.launch_blocking = blocking == 1;
    r.measured = true;
    r.why_not.clear();
    into = r;
    return true;
  });
}

}  // namespace ch08
