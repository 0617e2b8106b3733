/// @file findings_shared.hpp
/// @brief What the three findings files of chapter 10 share: a row found by
/// its name, and the finding of a section that did not run.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace ch10 {

/// The first of @p rows whose `name` is @p name, or nullptr.
template <class Row>
const Row* find_named(const std::vector<Row>& rows, const std::string& name) {
  for (const Row& row : rows)
    if (row.name == name) return &row;
  return nullptr;
}

/// "<id>.skipped", named @p name: an observation that says why the section was skipped.
inline lab::Finding skipped_finding(const std::string& id, const std::string& name, const std::string& why) {
  return lab::named_observation(id + ".skipped", name, "skipped: " + why);
}

}  // namespace ch10
