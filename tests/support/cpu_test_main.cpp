// main() for the CPU tests: doctest, leaving out the cases named in
// LAB_TEST_CASE_EXCLUDE (the SKIPPABLE ones, which ctest runs one by one).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  if (const char* excluded = std::getenv("LAB_TEST_CASE_EXCLUDE")) context.addFilter("test-case-exclude", excluded);
  return context.run();
}
