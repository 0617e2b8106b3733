#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>

namespace lab {

namespace {

// Width on a terminal: count UTF-8 code points, not bytes ("µs" is 2 columns).
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

}  // namespace

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) {
    throw std::invalid_argument("table row has " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  }
  rows_.push_back(std::move(cells));
}

std::string Table::render() const {
  std::vector<std::string> headers;
  std::vector<std::size_t> widths;
  for (const auto& c : columns_) {
    headers.push_back(c.unit.empty() ? c.header : c.header + " [" + c.unit + "]");
    widths.push_back(display_width(headers.back()));
  }
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(widths[i] - display_width(cells[i]), ' ');
      if (i > 0) out += "  ";
      out += columns_[i].align_right ? pad + cells[i] : cells[i] + (i + 1 < cells.size() ? pad : "");
    }
    return out + "\n";
  };
  std::string out = line(headers);
  std::size_t total = 0;
  for (std::size_t w : widths) total += w;
  out += std::string(total + 2 * (widths.size() - 1), '-') + "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

Report::Report(std::string chapter, Json device, Json options)
    : chapter_(std::move(chapter)),
      date_(utc_now_iso8601()),
      device_(std::move(device)),
      options_(std::move(options)) {}

Summary Report::add_result(const std::string& name, const std::string& unit, const std::vector<double>& samples,
                           Json extra) {
  const Summary s = summarize(samples);
  Json result = Json::object();
  result.set("name", name);
  result.set("unit", unit);
  result.set("samples", Json::array_of(samples));
  result.set("count", s.count);
  result.set("min", s.min);
  result.set("q1", s.q1);
  result.set("median", s.median);
  result.set("q3", s.q3);
  result.set("max", s.max);
  result.set("mean", s.mean);
  result.set("stddev", s.stddev);
  result.set("cv", s.cv);
  for (const auto& key : extra.keys()) result.set(key, extra.at(key));
  results_.push_back(std::move(result));
  return s;
}

bool Report::check(const std::string& name, bool passed, const std::string& detail) {
  checks_.push_back(Check{name, passed, detail});
  std::printf("[%s] %s: %s\n", passed ? "PASS" : "FAIL", name.c_str(), detail.c_str());
  return passed;
}

bool Report::all_passed() const {
  if (checks_.empty()) return false;
  for (const auto& c : checks_) {
    if (!c.passed) return false;
  }
  return true;
}

Json Report::to_json() const {
  Json json = Json::object();
  json.set("chapter", chapter_);
  json.set("date", date_);
  json.set("device", device_);
  json.set("options", options_);
  json.set("results", results_);
  Json checks = Json::array();
  for (const auto& c : checks_) {
    Json check = Json::object();
    check.set("name", c.name);
    check.set("passed", c.passed);
    check.set("detail", c.detail);
    checks.push_back(std::move(check));
  }
  json.set("checks", checks);
  json.set("passed", all_passed());
  return json;
}

int Report::finish(const std::string& json_path) const {
  std::size_t failed = 0;
  for (const auto& c : checks_) failed += c.passed ? 0 : 1;
  if (!json_path.empty()) {
    std::ofstream file(json_path);
    file << to_json().dump(2) << "\n";
    file.close();
    if (!file) throw std::runtime_error("could not write " + json_path);
    std::printf("results written to %s\n", json_path.c_str());
  }
  if (all_passed()) {
    std::printf("all %zu checks passed\n", checks_.size());
    return 0;
  }
  std::printf("%zu of %zu checks FAILED\n", checks_.empty() ? 1 : failed, checks_.size());
  return 1;
}

}  // namespace lab
