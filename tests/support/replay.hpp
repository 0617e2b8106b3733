// Replaying a kept run: a chapter's check functions fed the numbers a real GPU
// measured, from the run's JSON in docs/results/, so a CPU test can assert the
// verdicts each kept GPU got (issue: "replay the checks on both GPUs' data").
//
//   const lab_test::KeptRun run = lab_test::KeptRun::load("h200-2026-12-01", "ch01_kernel_launch");
//   const auto& rows = run.rows("variants");              // one table's rows, in order
//   std::vector<double> copy = lab_test::samples(rows.front());
//   CHECK(run.passed("launch_returns_early") == my_recomputed_finding.passed);
//
// The folders are those docs/results/README.md lists as kept; LAB_SOURCE_DIR is
// given to every CPU test by tests/CMakeLists.txt.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace lab_test {

/// The kept runs the pages quote (docs/results/README.md): the H200 the project is measured on,
/// and the H100 beside it (run 5; run 6 for chapter 11).
inline constexpr const char* kH200Run = "h200-2026-12-02e";
inline constexpr const char* kH100Run = "h100-2026-11-25/run5";

class KeptRun {
 public:
  /// The JSON of @p chapter (e.g. "ch01_kernel_launch") in docs/results/@p folder/.
  static KeptRun load(const std::string& folder, const std::string& chapter) {
    const std::string path = std::string(LAB_SOURCE_DIR) + "/docs/results/" + folder + "/" + chapter + ".json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("no kept run at " + path);
    KeptRun run;
    run.path_ = path;
    run.json_ = nlohmann::json::parse(in);
    return run;
  }

  const nlohmann::json& json() const { return json_; }
  const nlohmann::json& device() const { return json_.at("device"); }
  const nlohmann::json& options() const { return json_.at("options"); }

  /// Every result row of table @p table_id, in the order the chapter printed them.
  std::vector<nlohmann::json> rows(const std::string& table_id) const {
    std::vector<nlohmann::json> out;
    for (const auto& row : json_.at("results"))
      if (row.value("table_id", "") == table_id) out.push_back(row);
    if (out.empty()) throw std::runtime_error(path_ + ": no rows of table " + table_id);
    return out;
  }

  /// The row named @p name of table @p table_id.
  nlohmann::json row(const std::string& table_id, const std::string& name) const {
    for (const auto& r : rows(table_id))
      if (r.value("name", "") == name) return r;
    throw std::runtime_error(path_ + ": table " + table_id + " has no row " + name);
  }

  /// The check or finding whose finding_id is @p id or starts with "@p id." (the branch taken).
  const nlohmann::json& finding(const std::string& id) const {
    for (const char* list : {"checks", "findings"})
      for (const auto& f : json_.at(list)) {
        const std::string fid = f.value("finding_id", "");
        if (fid == id || fid.rfind(id + ".", 0) == 0) return f;
      }
    throw std::runtime_error(path_ + ": no check or finding " + id);
  }

  /// Did the run's check @p id pass?
  bool passed(const std::string& id) const { return finding(id).at("passed").get<bool>(); }

 private:
  std::string path_;
  nlohmann::json json_;
};

/// A row's samples (ms or whatever unit the table gave them).
inline std::vector<double> samples(const nlohmann::json& row) { return row.at("samples").get<std::vector<double>>(); }

}  // namespace lab_test
