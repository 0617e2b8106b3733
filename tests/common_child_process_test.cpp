// lab::run_child on the CPU: what a child prints, its exit code, the
// environment it gets, a program that is not there, and one that runs too long.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

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

TEST_CASE("child_failure: the reason it could not run, else its exit code and the tail of what it printed") {
  lab::ChildOutput out;
  out.exit_code = 3;
  out.text = "first line\nlast words \n\n";
  CHECK(lab::child_failure("ch00_child", out) == "ch00_child exited with code 3: first line\nlast words");
  CHECK(lab::child_failure("ch00_child", out, 10) == "ch00_child exited with code 3: last words");
  out.text = " \n";
  CHECK(lab::child_failure("ch00_child", out) == "ch00_child exited with code 3");
  out.error = "ch00_child did not finish within 1 s";
  CHECK(lab::child_failure("ch00_child", out) == "ch00_child did not finish within 1 s");
}

TEST_CASE("find_child_line hands the words after the tag to the reader, line by line, until it accepts them") {
  const std::string text = "noise ch00_child 1\nch00_child x\nch00_childish 5\nch00_child 7 8\nch00_child 9 9\n";
  std::vector<int> seen;
  const bool found = lab::find_child_line(text, "ch00_child", [&](std::istream& words) {
    int a = 0, b = 0;
    if (!(words >> a >> b)) return false;
    seen = {a, b};
    return true;
  });
  CHECK(found);
  CHECK(seen == std::vector<int>{7, 8});  // the first line it accepted; "ch00_child x" and the others skipped
  CHECK_FALSE(lab::find_child_line(text, "ch01_child", [](std::istream&) { return true; }));
}
