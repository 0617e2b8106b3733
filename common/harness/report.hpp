/// @file report.hpp
/// @brief Every number and finding of a chapter, recorded once and rendered
/// twice: on the terminal as it is added, and in the `--json` file at the end:
/// @code{.json}
/// { "schema": 2, "chapter", "date", "device": {...}, "options": {...}, "instrumented",
///   "results": [ {"table_id", "table", "name", "unit", "samples", "count", "min", ..., "cv", ...one field per column}
///   ], "checks": [ {"finding_id", "name", "kind", "passed", "judged", "detail", "values": {...}} ], "findings": [
///   {"finding_id", "name", "text", "values": {...}} ], "passed" }
/// @endcode
/// `table_id` and `finding_id` are stable: they do not change with the wording or
/// the options, so scripts and tests find a table or a finding by them. A finding
/// with branches names the branch it took after a dot ("working_set.in_l2").
#pragma once

#include <string>
#include <vector>

#include "fields.hpp"
#include "statistics.hpp"

namespace lab {

/// One column of a result table.
struct Column {
  std::string key;     ///< the row's field it shows, and its JSON key, e.g. "bandwidth_gbps"
  std::string header;  ///< the terminal header, e.g. "bandwidth"
  std::string unit;    ///< "ms", "GB/s", or "" for none
  int decimals = 3;    ///< digits after the point for numbers
};

/// A table of results: one row per variant, one column per measured quantity.
/// A row given samples also answers to the keys of lab::Summary ("median", ...);
/// fields with no column go to the JSON only.
class ResultTable {
 public:
  /// One row: a name and its fields.
  class Row {
   public:
    /// Sets field @p key (replacing an earlier value).
    Row& set(const std::string& key, Value value);
    /// Records every sample (in @p unit) and their statistics.
    Row& samples(const std::vector<double>& samples, const std::string& unit);
    /// The field @p key, or the statistic of that name, or a none Value.
    Value get(const std::string& key) const;
    const Summary& summary() const { return summary_; }                    ///< zeros unless samples() was called
    const std::string& name() const { return name_; }                      ///< e.g. "grid-stride float4"
    const std::vector<double>& sample_values() const { return samples_; }  ///< the samples given to samples()
    const std::string& unit() const { return unit_; }                      ///< their unit
    const Fields& fields() const { return fields_; }                       ///< in the order they were set

    /// A row named @p name with no fields.
    explicit Row(std::string name) : name_(std::move(name)) {}

   private:
    std::string name_;
    Fields fields_;
    std::vector<double> samples_;
    std::string unit_;
    Summary summary_{};
  };

  /// A table known as @p id (stable, e.g. "variants"), titled @p title, whose
  /// first column, headed @p name_header, holds the row names.
  ResultTable(std::string id, std::string title, std::string name_header, std::vector<Column> columns);
  /// Adds a row named @p name and returns it to be filled.
  Row& add_row(const std::string& name);
  /// The row named @p name; throws std::out_of_range when there is none.
  const Row& row(const std::string& name) const;
  const std::vector<Row>& rows() const { return rows_; }  ///< in the order they were added
  const std::string& title() const { return title_; }     ///< the title
  const std::string& id() const { return id_; }           ///< the stable id
  /// A line printed under the table (what the numbers count, how they were taken).
  ResultTable& note(std::string text) {
    note_ = std::move(text);
    return *this;
  }
  /// The table as aligned text: title, header with units, a rule, the rows, the note.
  std::string render() const;

 private:
  std::string id_;
  std::string title_;
  std::string name_header_;
  std::vector<Column> columns_;
  std::vector<Row> rows_;
  std::string note_;
};

/// What a chapter concluded from its data: a verdict or a sentence, made by a
/// pure function of the measured values (with a CPU test per branch).
struct Finding {
  /// What kind of conclusion it is.
  enum class Kind {
    correctness,  ///< a result checked against the CPU, or a documented guarantee: always judged
    timing,       ///< a claim about time: not judged under a sanitizer or profiler
    observation   ///< a sentence saying what happened in this run; no verdict
  };
  Kind kind = Kind::observation;  ///< what kind
  std::string name;               ///< short label, e.g. "launch returns before the kernel ends"
  bool passed = true;             ///< the verdict (observations: true)
  std::string text;               ///< the sentence, with its numbers
  std::string id;                 ///< stable id, with the branch taken: "working_set.in_l2"
  Fields values;                  ///< the numbers the verdict and the text were made from

  /// Records @p value as the number @p key this finding was made from (for the JSON and the tests).
  Finding& with(std::string key, Value value) {
    values.push_back(Field{std::move(key), std::move(value)});
    return *this;
  }
  /// The value recorded as @p key; throws std::out_of_range when there is none.
  const Value& value(const std::string& key) const;
};

/// A correctness verdict known as @p id (always judged).
Finding correctness_check(std::string id, std::string name, bool passed, std::string text);
/// A timing verdict known as @p id (not judged when the run is instrumented).
Finding timing_check(std::string id, std::string name, bool passed, std::string text);
/// A sentence known as @p id about what happened, computed from the data.
Finding observation(std::string id, std::string name, std::string text);
/// observation() whose text opens with its name ("name: text"): an observation
/// is printed as its text alone ("  -> ..."), so this keeps the name in view.
Finding named_observation(std::string id, const std::string& name, const std::string& text);

/// The one way a chapter says a section (or a version) did not run here: a named
/// observation "name: skipped: why" whose id is @p id + ".skipped". The tour lists
/// every chapter with such a finding as run in part (cmake/RunTour.cmake).
inline constexpr const char* kSkippedSuffix = ".skipped";
/// The finding of a section or version that did not run here: "name: skipped: why", id "@p id.skipped".
Finding skipped(const std::string& id, const std::string& name, const std::string& why);

/// The version of the JSON's shape; bumped when a field changes meaning or place.
/// 2: "table_id", "finding_id" and a finding's "values" (2026-11-25).
inline constexpr int kJsonSchema = 2;

/// Collects a chapter's tables and findings, prints them as they come, writes the JSON.
class Report {
 public:
  /// A report for @p chapter ("01_kernel_launch"); when @p instrumented, timing checks are not judged.
  Report(std::string chapter, Fields device, Fields options, bool instrumented = false);

  /// Starts a numbered section of the chapter page, e.g. "2. Three ways to cover n elements".
  void section(const std::string& title);
  /// Prints @p table and records its rows as results; a table without an id is a bug (std::logic_error).
  void add(const ResultTable& table);
  /// Prints @p finding ("[PASS] name: text", "[FAIL] ...", "[NOT JUDGED] ...", "  -> text") and records it;
  /// a finding without an id is a bug (std::logic_error).
  void add(const Finding& finding);
  /// Adds each of @p findings.
  void add(const std::vector<Finding>& findings);
  /// Adds @p field to the device's properties (e.g. the SM clock measured in a kernel).
  void add_device_field(Field field);

  /// Did every judged check pass (and was at least one check made)?
  bool all_passed() const;
  /// The whole report in the shared shape, as JSON text.
  std::string json_text() const;
  /// Prints the verdict, writes the JSON to @p json_path unless it is empty,
  /// and returns 0 when every judged check passed, else 1.
  int finish(const std::string& json_path) const;

 private:
  // Does @p finding count toward the verdict? Checks do, except timing checks of an instrumented run.
  bool judged(const Finding& finding) const;
  /// @cond INTERNAL
  struct Result {
    std::string table_id;  // the id of the table it came from
    std::string table;     // its title
    ResultTable::Row row;
  };
  /// @endcond
  std::string chapter_;
  std::string date_;
  Fields device_;
  Fields options_;
  bool instrumented_;
  std::vector<Result> results_;
  std::vector<Finding> findings_;
};

}  // namespace lab
