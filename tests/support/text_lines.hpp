// Splits printed text (a table, a chart) into its lines, for tests that check
// rows and columns.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace lab_test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace lab_test
