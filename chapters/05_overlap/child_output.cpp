#include "child_output.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ch05 {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QueueSchedules, chunks, v1_ms, v2_ms, correct)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StreamOrder, streams, depth_first_ms, breadth_first_ms)

std::string child_output_text(const QueueChild& child) {
  const nlohmann::json line = {{"connections", child.seen},
                               {"spin_ms", child.spin_ms},
                               {"schedules", child.schedules},
                               {"orders", child.orders}};
  return line.dump() + "\n";
}

bool read_child_output(const std::string& text, QueueChild& child) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      j.at("connections").get_to(child.seen);
      j.at("spin_ms").get_to(child.spin_ms);
      j.at("schedules").get_to(child.schedules);
      j.at("orders").get_to(child.orders);
    } catch (const nlohmann::json::exception&) {
      continue;  // not the child's line (a driver's warning, say), or not all of it
    }
    child.connections = child.seen.empty() ? 8 : std::atoi(child.seen.c_str());  // unset: the documented default
    child.measured = !child.schedules.empty() && !child.orders.empty() && child.spin_ms > 0;
    child.why_not = child.measured ? "" : "ch05_queue_child reported no measurement";
    return child.measured;
  }
  child.measured = false;
  child.why_not = "ch05_queue_child printed no line the chapter could read";
  return false;
}

}  // namespace ch05
