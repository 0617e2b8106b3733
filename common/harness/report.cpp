#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "output_file.hpp"

namespace lab {

namespace {

using Json = nlohmann::ordered_json;

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

Json to_json(const Value& value) {
  switch (value.type()) {
    case Value::Type::none: return nullptr;
    case Value::Type::number: return value.number();
    case Value::Type::integer: return value.integer();
    case Value::Type::boolean: return value.boolean();
    case Value::Type::text: return value.text();
    case Value::Type::numbers: return value.numbers();
  }
  return nullptr;
}

Json to_json(const Fields& fields) {
  Json json = Json::object();
  for (const Field& f : fields) json[f.key] = to_json(f.value);
  return json;
}

// What a row with samples answers for these keys, besides "count" (lab::summarize).
constexpr std::pair<const char*, double Summary::*> kStatistics[] = {
    {"min", &Summary::min}, {"q1", &Summary::q1},     {"median", &Summary::median}, {"q3", &Summary::q3},
    {"max", &Summary::max}, {"mean", &Summary::mean}, {"stddev", &Summary::stddev}, {"cv", &Summary::cv}};

bool is_check(const Finding& f) { return f.kind != Finding::Kind::observation; }

}  // namespace

NLOHMANN_JSON_SERIALIZE_ENUM(Finding::Kind, {{Finding::Kind::correctness, "correctness"},
                                             {Finding::Kind::timing, "timing"},
                                             {Finding::Kind::observation, "observation"}})

// --- ResultTable ------------------------------------------------------------

ResultTable::Row& ResultTable::Row::set(const std::string& key, Value value) {
  for (Field& f : fields_) {
    if (f.key == key) {
      f.value = std::move(value);
      return *this;
    }
  }
  fields_.push_back(Field{key, std::move(value)});
  return *this;
}

ResultTable::Row& ResultTable::Row::samples(const std::vector<double>& samples, const std::string& unit) {
  samples_ = samples;
  unit_ = unit;
  summary_ = summarize(samples);
  return *this;
}

Value ResultTable::Row::get(const std::string& key) const {
  for (const Field& f : fields_) {
    if (f.key == key) return f.value;
  }
  if (samples_.empty()) return Value();
  if (key == "count") return Value(static_cast<long long>(summary_.count));
  for (const auto& [name, member] : kStatistics) {
    if (key == name) return summary_.*member;
  }
  return Value();
}

ResultTable::ResultTable(std::string id, std::string title, std::string name_header, std::vector<Column> columns)
    : id_(std::move(id)),
      title_(std::move(title)),
      name_header_(std::move(name_header)),
      columns_(std::move(columns)) {}
ResultTable::Row& ResultTable::add_row(const std::string& name) {
  rows_.emplace_back(name);
  return rows_.back();
}

const ResultTable::Row& ResultTable::row(const std::string& name) const {
  for (const Row& r : rows_) {
    if (r.name() == name) return r;
  }
  throw std::out_of_range("table '" + title_ + "' has no row '" + name + "'");
}

std::string ResultTable::render() const {
  std::vector<std::vector<std::string>> lines{{name_header_}};  // the header, then one line per row
  for (const Column& c : columns_) lines[0].push_back(c.unit.empty() ? c.header : c.header + " [" + c.unit + "]");
  for (const Row& r : rows_) {
    lines.push_back({r.name()});
    for (const Column& c : columns_) lines.back().push_back(r.get(c.key).format(c.decimals));
  }
  std::vector<std::size_t> widths(lines[0].size(), 0);
  for (const auto& line : lines)
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], display_width(line[i]));
  std::string out = title_.empty() ? "" : title_ + "\n";
  for (std::size_t l = 0; l < lines.size(); ++l) {
    for (std::size_t i = 0; i < lines[l].size(); ++i) {  // names to the left, the rest to the right
      const std::string pad(widths[i] - display_width(lines[l][i]), ' ');
      if (i == 0) {
        out += lines[l][i] + (lines[l].size() > 1 ? pad : "");
      } else {
        out += "  " + pad + lines[l][i];
      }
    }
    out += "\n";
    if (l == 0) {
      std::size_t total = 2 * (widths.size() - 1);
      for (std::size_t w : widths) total += w;
      out += std::string(total, '-') + "\n";
    }
  }
  if (!note_.empty()) out += note_ + "\n";
  return out;
}

// --- Findings ---------------------------------------------------------------

const Value& Finding::value(const std::string& key) const {
  for (const Field& f : values) {
    if (f.key == key) return f.value;
  }
  throw std::out_of_range("finding '" + id + "' has no value '" + key + "'");
}

Finding correctness_check(std::string id, std::string name, bool passed, std::string text) {
  return Finding{Finding::Kind::correctness, std::move(name), passed, std::move(text), std::move(id), {}};
}
Finding timing_check(std::string id, std::string name, bool passed, std::string text) {
  return Finding{Finding::Kind::timing, std::move(name), passed, std::move(text), std::move(id), {}};
}
Finding observation(std::string id, std::string name, std::string text) {
  return Finding{Finding::Kind::observation, std::move(name), true, std::move(text), std::move(id), {}};
}
Finding named_observation(std::string id, const std::string& name, const std::string& text) {
  return observation(std::move(id), name, name + ": " + text);
}

Finding skipped(const std::string& id, const std::string& name, const std::string& why) {
  return named_observation(id + kSkippedSuffix, name, "skipped: " + why);
}

// --- Report -----------------------------------------------------------------

Report::Report(std::string chapter, Fields device, Fields options, bool instrumented)
    : chapter_(std::move(chapter)),
      date_(utc_now_iso8601()),
      device_(std::move(device)),
      options_(std::move(options)),
      instrumented_(instrumented) {}

void Report::section(const std::string& title) {
  std::printf("\n%s\n%s\n", title.c_str(), std::string(display_width(title), '-').c_str());
}

void Report::add(const ResultTable& table) {
  if (table.id().empty()) throw std::logic_error("table '" + table.title() + "' has no id");
  std::printf("%s", table.render().c_str());
  for (const ResultTable::Row& r : table.rows()) results_.push_back(Result{table.id(), table.title(), r});
}

void Report::add(const Finding& finding) {
  if (finding.id.empty()) throw std::logic_error("finding '" + finding.name + "' has no id");
  findings_.push_back(finding);
  if (!is_check(finding)) {
    std::printf("  -> %s\n", finding.text.c_str());
    return;
  }
  const bool counts = judged(finding);
  const char* verdict = !counts ? "NOT JUDGED" : finding.passed ? "PASS" : "FAIL";
  std::printf("[%s] %s: %s%s\n", verdict, finding.name.c_str(), finding.text.c_str(),
              counts ? "" : " (a timing check, under a sanitizer or profiler)");
}

void Report::add(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) add(f);
}

void Report::add_device_field(Field field) { device_.push_back(std::move(field)); }

bool Report::judged(const Finding& f) const {
  return is_check(f) && !(instrumented_ && f.kind == Finding::Kind::timing);
}

bool Report::all_passed() const {
  bool any = false;
  for (const Finding& f : findings_) {
    if (!is_check(f)) continue;
    any = true;
    if (judged(f) && !f.passed) return false;
  }
  return any;
}

std::string Report::json_text() const {
  Json json = Json::object();
  json["schema"] = kJsonSchema;
  json["chapter"] = chapter_;
  json["date"] = date_;
  json["device"] = to_json(device_);
  json["options"] = to_json(options_);
  json["instrumented"] = instrumented_;
  Json results = Json::array();
  for (const Result& result : results_) {
    const ResultTable::Row& r = result.row;
    Json entry = Json::object();
    if (!result.table_id.empty()) entry["table_id"] = result.table_id;
    if (!result.table.empty()) entry["table"] = result.table;
    entry["name"] = r.name();
    if (!r.sample_values().empty()) {
      entry["unit"] = r.unit();
      entry["samples"] = r.sample_values();
      entry["count"] = r.summary().count;
      for (const auto& [key, member] : kStatistics) entry[key] = r.summary().*member;
    }
    for (const Field& f : r.fields()) entry[f.key] = to_json(f.value);
    results.push_back(std::move(entry));
  }
  json["results"] = std::move(results);
  Json checks = Json::array();
  Json findings = Json::array();
  for (const Finding& f : findings_) {
    if (is_check(f)) {
      checks.push_back({{"finding_id", f.id},
                        {"name", f.name},
                        {"kind", f.kind},
                        {"passed", f.passed},
                        {"judged", judged(f)},
                        {"detail", f.text},
                        {"values", to_json(f.values)}});
    } else {
      findings.push_back({{"finding_id", f.id}, {"name", f.name}, {"text", f.text}, {"values", to_json(f.values)}});
    }
  }
  json["checks"] = std::move(checks);
  json["findings"] = std::move(findings);
  json["passed"] = all_passed();
  return json.dump(2) + "\n";
}

int Report::finish(const std::string& json_path) const {
  std::size_t failed = 0, checks = 0, not_judged = 0;
  for (const Finding& f : findings_) {
    if (!is_check(f)) continue;
    ++checks;
    if (!judged(f)) {
      ++not_judged;
    } else if (!f.passed) {
      ++failed;
    }
  }
  if (!json_path.empty()) {
    write_file_atomically(json_path, json_text());
    std::printf("\nresults written to %s\n", json_path.c_str());
  }
  const std::string unjudged =
      not_judged == 0 ? "" : " (" + std::to_string(not_judged) + " timing checks not judged: instrumented run)";
  if (all_passed()) {
    std::printf("all %zu checks passed%s\n", checks - not_judged, unjudged.c_str());
    return 0;
  }
  std::printf("%zu of %zu checks FAILED%s\n", checks == 0 ? 1 : failed, checks, unjudged.c_str());
  return 1;
}

}  // namespace lab
