// What the chapters' option tests share: the usage error a command line gets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "program.hpp"

namespace lab_test {

// The message a chapter's option table (declared by @p add_options on an
// @p Settings) throws for @p args, or "" when they are valid.
template <class Settings, class AddOptions>
std::string usage_error(AddOptions add_options, std::vector<const char*> args) {
  Settings settings;
  lab::Options table("chapter", "test");
  add_options(table, settings);
  args.insert(args.begin(), "chapter");
  try {
    table.parse(static_cast<int>(args.size()), args.data());
  } catch (const lab::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace lab_test
