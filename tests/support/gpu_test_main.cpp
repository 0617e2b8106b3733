// main() for the GPU tests: without a usable CUDA device the test says why and
// exits 77, which ctest (SKIP_RETURN_CODE 77) shows as skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "device.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  std::string reason;
  if (!lab::usable_device(&reason)) {
    std::printf("skipped: no usable CUDA device: %s\n", reason.c_str());
    return lab::exit_code::no_device;
  }
  doctest::Context context(argc, argv);
  // The SKIPPABLE cases run one by one in ctest entries of their own.
  if (const char* excluded = std::getenv("LAB_TEST_CASE_EXCLUDE")) context.addFilter("test-case-exclude", excluded);
  return context.run();
}
