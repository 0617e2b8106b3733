/// @file findings_shared.hpp
/// @brief What the three findings files of chapter 10 share: a row found by
/// its name (a section that did not run says so with lab::skipped).
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

}  // namespace ch10
