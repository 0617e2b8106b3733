// What the chapters' findings tests share: looking up a finding or a table
// cell, and hand-made comparisons that pass or fail.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace lab_test {

// Does @p text contain @p part? Says what it looked for when it does not.
inline bool contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  MESSAGE("\"" << part << "\" is not in \"" << text << "\"");
  return false;
}

// The finding whose name starts with @p name; fails the test when there is none.
inline const lab::Finding& finding(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name.rfind(name, 0) == 0) return f;
  }
  FAIL("no finding named '" << name << "'");
  static lab::Finding none;
  return none;
}

// The finding whose id is @p id, or whose id is @p id with a branch after a
// dot ("working_set" finds "working_set.in_l2"); fails the test when there is none.
inline const lab::Finding& by_id(const std::vector<lab::Finding>& findings, const std::string& id) {
  for (const lab::Finding& f : findings) {
    if (f.id == id || f.id.rfind(id + ".", 0) == 0) return f;
  }
  FAIL("no finding with id '" << id << "'");
  static lab::Finding none;
  return none;
}

// Is there a finding with id @p id (or @p id with a branch)?
inline bool has_id(const std::vector<lab::Finding>& findings, const std::string& id) {
  for (const lab::Finding& f : findings) {
    if (f.id == id || f.id.rfind(id + ".", 0) == 0) return true;
  }
  return false;
}

// The number recorded as @p key by the finding with id @p id.
inline double value(const std::vector<lab::Finding>& findings, const std::string& id, const std::string& key) {
  return by_id(findings, id).value(key).number();
}

// The number in row @p row, column @p key of @p table.
inline double cell(const lab::ResultTable& table, const std::string& row, const std::string& key) {
  return table.row(row).get(key).number();
}

// A comparison of @p count values that all matched.
inline lab::Comparison correct(std::size_t count = 1024) {
  lab::Comparison c;
  c.count = count;
  return c;
}

// A comparison of 1024 values, 3 wrong, the first a NaN.
inline lab::Comparison wrong() {
  lab::Comparison c;
  c.count = 1024;
  c.mismatches = 3;
  c.first.push_back({7, 1.0, std::numeric_limits<double>::quiet_NaN()});
  return c;
}

}  // namespace lab_test
