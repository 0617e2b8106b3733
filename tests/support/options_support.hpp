// What the chapters' option tests share: a command line parsed, or the usage error it gets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "program.hpp"

namespace lab_test {

// @p args (after the program name) parsed by a chapter's option table, declared
// by @p add_options on a fresh @p Settings; throws lab::UsageError as the chapter would.
template <class Settings, class AddOptions>
Settings parsed(AddOptions add_options, std::vector<const char*> args) {
  Settings settings;
  lab::Options table("chapter", "test");
  add_options(table, settings);
  args.insert(args.begin(), "chapter");
  table.parse(static_cast<int>(args.size()), args.data());
  return settings;
}

// The message parsed() throws for @p args, or "" when they are valid.
template <class Settings, class AddOptions>
std::string usage_error(AddOptions add_options, std::vector<const char*> args) {
  try {
    parsed<Settings>(add_options, std::move(args));
  } catch (const lab::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace lab_test
