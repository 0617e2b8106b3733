// lab::run_child on the CPU: what a child prints, its exit code, the
// environment it gets, a program that is not there, and one that runs too long.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "child_process.hpp"

namespace {
const std::string kShell = "/bin/sh";
}

TEST_CASE("run_child collects stdout and stderr and the exit code") {
  const lab::ChildOutput out = lab::run_child(kShell, {"-c", "echo out; echo err 1>&2; exit 3"}, 10.0);
  CHECK(out.error.empty());
  CHECK(out.exit_code == 3);
  CHECK(out.text.find("out\n") != std::string::npos);
  CHECK(out.text.find("err\n") != std::string::npos);
}

TEST_CASE("run_child sets, replaces and removes environment variables") {
  setenv("LAB_CHILD_TEST_KEPT", "kept", 1);
  setenv("LAB_CHILD_TEST_GONE", "here", 1);
  setenv("LAB_CHILD_TEST_SET", "old", 1);
  const lab::ChildOutput out =
      lab::run_child(kShell, {"-c", "echo \"$LAB_CHILD_TEST_KEPT|${LAB_CHILD_TEST_GONE-unset}|$LAB_CHILD_TEST_SET\""},
                     10.0, {"LAB_CHILD_TEST_GONE", "LAB_CHILD_TEST_SET=new"});
  CHECK(out.exit_code == 0);
  CHECK(out.text == "kept|unset|new\n");
}

TEST_CASE("run_child says what went wrong: no such program, or it ran too long") {
  const lab::ChildOutput missing = lab::run_child("/no/such/ch00_child", {}, 10.0);
  CHECK(missing.exit_code == -1);
  CHECK(missing.error == "no executable at /no/such/ch00_child (build the target ch00_child)");
  const lab::ChildOutput slow = lab::run_child(kShell, {"-c", "echo started; sleep 30"}, 1.0);
  CHECK(slow.error == "sh did not finish within 1 s");
  CHECK(slow.text == "started\n");
}

TEST_CASE("program_beside_this_one is in the folder of the running test") {
  const std::string path = lab::program_beside_this_one("ch00_child");
  CHECK(path.size() > std::string("/ch00_child").size());
  CHECK(path.substr(path.size() - 11) == "/ch00_child");
}
