// main() for the GPU tests: without a usable CUDA device the test says why and
// exits 77, which ctest (SKIP_RETURN_CODE 77) shows as skipped, never as passed.
//
// With the environment variable LAB_CHECK_RESULT=<path>, the run also writes a
// result file there once every test case has run (a doctest listener, beside
// the usual console report): the test cases run, passed and failed, by name.
// scripts/progress counts an exercise as solved only when that file shows
// every test case of the instructor's check.cu passed, so a program that ends
// early (std::exit(0) in a static initialiser or inside the learner's
// function) is not solved: it never reaches the end of the run that writes it.
//
// Without a usable device, the test cases named "cpu: ..." still run (a check's parts
// that need no GPU: a rule read from the learner's source on the CPU, sizes and offsets),
// and the run writes no result file: only a full run on a GPU can show an exercise
// solved. Their failure exits 1; otherwise the run is skipped (77) and says whether a
// CPU-only part passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "device.cuh"
#include "program.hpp"

namespace {

bool cpu_only = false;  // no usable device: only the "cpu: ..." test cases run, no result file
int cases_run = 0;      // test cases that started

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Writes LAB_CHECK_RESULT at the end of the run: {"format": 1, "test_cases_run": ..., "passed": [...], ...}.
struct ResultFile : public doctest::IReporter {
  explicit ResultFile(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_case_start(const doctest::TestCaseData& data) override {
    current_ = data.m_name;
    ++cases_run;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    (stats.testCaseSuccess ? passed_ : failed_).push_back(current_);
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    const char* path = std::getenv("LAB_CHECK_RESULT");
    if (cpu_only || path == nullptr || *path == '\0') return;
    const std::string partial = std::string(path) + ".partial";
    {
      std::ofstream out(partial, std::ios::trunc);
      out << "{\"format\": 1, \"test_cases_run\": " << stats.numTestCasesPassingFilters
          << ", \"test_cases_failed\": " << stats.numTestCasesFailed << ", \"asserts\": " << stats.numAsserts
          << ", \"asserts_failed\": " << stats.numAssertsFailed << ", \"passed\": [";
      for (std::size_t i = 0; i < passed_.size(); ++i) out << (i ? ", " : "") << json_string(passed_[i]);
      out << "], \"failed\": [";
      for (std::size_t i = 0; i < failed_.size(); ++i) out << (i ? ", " : "") << json_string(failed_[i]);
      out << "]}\n";
    }
    std::rename(partial.c_str(), path);  // whole or not at all
  }

 private:
  std::string current_;
  std::vector<std::string> passed_, failed_;
};

}  // namespace

DOCTEST_REGISTER_LISTENER("lab_result_file", 1, ResultFile);

int main(int argc, char** argv) {
  std::string reason;
  if (!lab::usable_device(&reason)) {
    cpu_only = true;
    // Not argv: its test-case filters (a SKIPPABLE ctest entry's "tma:*") would add GPU cases
    // to the "cpu: *" ones, since doctest runs a case that matches any of its filters.
    doctest::Context context;
    context.addFilter("test-case", "cpu: *");
    context.setOption("minimal", true);  // the CPU part's failures in full, no summary when none ran
    const int failed = context.run();
    if (cases_run > 0 && failed != 0) {
      std::printf("no usable CUDA device: %s; the check's CPU-only part failed (above)\n", reason.c_str());
      return lab::exit_code::failure;
    }
    std::printf(
        "skipped: no usable CUDA device: %s%s\n", reason.c_str(),
        cases_run > 0 ? ("; its CPU-only part passed (" + std::to_string(cases_run) + " test case(s))").c_str() : "");
    return lab::exit_code::no_device;
  }
  doctest::Context context(argc, argv);
  // The SKIPPABLE cases run one by one in ctest entries of their own.
  if (const char* excluded = std::getenv("LAB_TEST_CASE_EXCLUDE")) context.addFilter("test-case-exclude", excluded);
  return context.run();
}
