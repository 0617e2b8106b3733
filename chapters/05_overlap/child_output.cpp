#include "child_output.hpp"

#include <cstdlib>
#include <sstream>

#include "vocabulary.hpp"

namespace ch05 {

namespace {

std::string joined(const std::vector<double>& values) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : ",") + lab::fixed(v, 4);
  return text;
}

std::vector<double> numbers_from(const std::string& text, bool& ok) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end == nullptr || *end != '\0' || !(v >= 0)) ok = false;
    values.push_back(v);
  }
  if (values.empty()) ok = false;
  return values;
}

}  // namespace

std::string child_output_text(const QueueChild& child) {
  std::ostringstream out;
  out << "connections " << (child.seen.empty() ? "unset" : child.seen) << "\n";
  for (const QueueSchedules& s : child.schedules) {
    out << "schedules " << s.chunks << " " << (s.correct ? 1 : 0) << " " << joined(s.v1_ms) << " " << joined(s.v2_ms)
        << "\n";
  }
  out << "spin " << lab::fixed(child.spin_ms, 3) << "\n";
  for (const StreamOrder& o : child.orders) {
    out << "orders " << o.streams << " " << joined(o.depth_first_ms) << " " << joined(o.breadth_first_ms) << "\n";
  }
  out << "done\n";
  return out.str();
}

bool read_child_output(const std::string& text, QueueChild& child) {
  child.measured = false;
  child.schedules.clear();
  child.orders.clear();
  std::istringstream lines(text);
  std::string line;
  bool ok = true, done = false, saw_connections = false;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind, first, second;
    words >> kind;
    if (kind == "connections") {
      words >> child.seen;
      if (child.seen == "unset") child.seen.clear();
      char* end = nullptr;
      const long value = std::strtol(child.seen.c_str(), &end, 10);
      child.connections = child.seen.empty() ? 8 : *end == '\0' && value >= 1 ? static_cast<int>(value) : 0;
      saw_connections = true;
    } else if (kind == "schedules") {
      QueueSchedules s;
      int correct = -1;
      words >> s.chunks >> correct >> first >> second;
      s.correct = correct == 1;
      s.v1_ms = numbers_from(first, ok);
      s.v2_ms = numbers_from(second, ok);
      if (s.chunks < 1 || (correct != 0 && correct != 1)) ok = false;
      child.schedules.push_back(s);
    } else if (kind == "spin") {
      words >> child.spin_ms;
      if (!(child.spin_ms > 0)) ok = false;
    } else if (kind == "orders") {
      StreamOrder o;
      words >> o.streams >> first >> second;
      o.depth_first_ms = numbers_from(first, ok);
      o.breadth_first_ms = numbers_from(second, ok);
      if (o.streams < 1) ok = false;
      child.orders.push_back(o);
    } else if (kind == "done") {
      done = true;
    }
  }
  if (!ok || !done || !saw_connections || child.schedules.empty() || child.orders.empty()) {
    child.why_not = "ch05_queue_child's output could not be read" + std::string(done ? "" : " (no final 'done' line)");
    return false;
  }
  child.measured = true;
  return true;
}

}  // namespace ch05
