// Chapter 06's registration model, the PCIe rate and the options file, on numbers
// worked by hand (no GPU needed).
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "../chapters/06_pinned_memory/options.hpp"  // chapter 06's: two files are named options.hpp
#include "command_line.hpp"
#include "memory_fit.hpp"
#include "program.hpp"  // lab::UsageError
#include "registration_model.hpp"
#include "support/options_support.hpp"

TEST_CASE("registration pays off after registration / saving-per-copy copies") {
  // 10 ms to register and unregister; each copy saves 40 - 5 = 35 ms: the first copy already pays.
  CHECK(ch06::copies_to_break_even({10.0, 40.0, 5.0}) == 1);
  // 100 ms to register, 10 ms saved per copy: after 10 copies both take 100 ms more or less;
  // registering is ahead from the 11th (100 + 11 x 5 = 155 < 11 x 15 = 165).
  const ch06::RegistrationCosts costs{100.0, 15.0, 5.0};
  CHECK(ch06::copies_to_break_even(costs) == 11);
}

TEST_CASE("registration never pays when a registered copy is not faster") {
  CHECK(ch06::copies_to_break_even({1.0, 5.0, 5.0}) == 0);
  CHECK(ch06::copies_to_break_even({1.0, 5.0, 6.0}) == 0);
  CHECK(ch06::copies_to_break_even({0.0, 5.0, 4.0}) == 1);  // free registration: the first copy wins
}

TEST_CASE("PCIe data rates per direction after line encoding") {
  CHECK(ch06::pcie_gigabytes_per_second(5, 16) == doctest::Approx(63.015).epsilon(1e-4));  // 32 GT/s x 128/130 / 8 x 16
  CHECK(ch06::pcie_gigabytes_per_second(4, 16) == doctest::Approx(31.508).epsilon(1e-4));
  CHECK(ch06::pcie_gigabytes_per_second(3, 8) == doctest::Approx(7.877).epsilon(1e-3));
  CHECK(ch06::pcie_gigabytes_per_second(2, 16) == doctest::Approx(8.0));  // 5 GT/s x 8/10 / 8 x 16
  CHECK(ch06::pcie_gigabytes_per_second(1, 1) == doctest::Approx(0.25));
  CHECK(ch06::pcie_gigabytes_per_second(0, 16) == 0.0);  // unknown (NVML missing)
  CHECK(ch06::pcie_gigabytes_per_second(7, 16) == 0.0);
}

// Section 4's calibration: 1000 steps took 2 ms, so 5 ms needs 2500 (an inverted ratio gives 400).
TEST_CASE("CPU work: steps rescaled to the target time") {
  CHECK(ch06::rescaled_cpu_steps(1000, 2.0, 5.0) == 2500);
  CHECK(ch06::rescaled_cpu_steps(3000, 4.931, 1.635) == 995);  // too long a run shortened, rounded
  // The miss of run 2 (2026-11-25): work meant to match a 4.931 ms copy took 1.635 ms; about 3x the steps.
  CHECK(ch06::rescaled_cpu_steps(1'000'000, 1.635, 4.931) == 3'015'902);
  CHECK(ch06::rescaled_cpu_steps(10, 100.0, 1.0) == 1);     // never fewer than one step
  CHECK(ch06::rescaled_cpu_steps(1000, 0.0, 5.0) == 1000);  // no time measured: keep the estimate
}

// --- the options file: the rule and the memory need ---------------------------------

namespace {

// Parses @p args (after the program name) into a fresh ch06::Options.
ch06::Options parsed(std::vector<const char*> args) {
  return lab_test::parsed<ch06::Options>(ch06::add_options, std::move(args));
}

}  // namespace

TEST_CASE("options: defaults, sizes in bytes, and --mib above --max-mib refused") {
  const ch06::Options o = parsed({});
  CHECK(o.max_mib == 1024);
  CHECK(o.mib == 256);
  CHECK(o.reps == 10);
  CHECK(ch06::sweep_bytes(o) == std::size_t{1} << 30);
  CHECK(ch06::experiment_bytes(o) == std::size_t{256} << 20);
  CHECK(parsed({"--max-mib", "256", "--mib", "256"}).mib == 256);
  CHECK_THROWS_AS(parsed({"--max-mib", "256", "--mib", "512"}), lab::UsageError);
  CHECK_THROWS_AS(parsed({"--reps", "0"}), lab::UsageError);
}

TEST_CASE("options: the memory need is the sweep's, or the upload's five buffers when --mib is near --max-mib") {
  constexpr double kMiB = 1024.0 * 1024.0;
  ch06::Options o;  // --max-mib 1024 --mib 256: the sweep holds the most
  lab::MemoryNeed need = ch06::memory_need(o);
  CHECK(need.device_bytes == doctest::Approx(2048 * kMiB));
  CHECK(need.host_bytes == doctest::Approx(4096 * kMiB));
  CHECK(need.what == "--max-mib 1024 with --mib 256");
  o.max_mib = 256;  // the upload's five buffers of --mib (1280 MiB) outgrow the sweep's four (1024 MiB)
  need = ch06::memory_need(o);
  CHECK(need.device_bytes == doctest::Approx(512 * kMiB));
  CHECK(need.host_bytes == doctest::Approx(1280 * kMiB));
  CHECK_FALSE(lab::check_memory_fits(need, std::size_t{1} << 28, std::size_t{1} << 40).empty());  // 256 MiB free
  CHECK(lab::check_memory_fits(need, std::size_t{1} << 40, std::size_t{1} << 40).empty());
}
