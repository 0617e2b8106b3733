#include "child_output.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

namespace ch05 {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QueueSchedules, chunks, v1_ms, v2_ms, correct)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StreamOrder, streams, depth_first_ms, breadth_first_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QueueChild, seen, spin_ms, schedules, orders)

std::string child_output_text(const QueueChild& child) { return nlohmann::json(child).dump() + "\n"; }

bool read_child_output(const std::string& text, QueueChild& child) {
  std::istringstream lines(text);
  child.why_not = "ch05_queue_child printed no line the chapter could read";
  for (std::string line; std::getline(lines, line);) {
    try {
      nlohmann::json::parse(line).get_to(child);  // seen, spin_ms, schedules, orders; asked is kept
    } catch (const nlohmann::json::exception&) {
      continue;  // not the child's line (a driver's warning, say), or not all of it
    }
    const bool measured = !child.schedules.empty() && !child.orders.empty() && child.spin_ms > 0;
    child.why_not = measured ? "" : "ch05_queue_child reported no measurement";
    break;
  }
  return child.measured();
}

}  // namespace ch05
