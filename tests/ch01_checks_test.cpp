// Chapter 01's checks and tables on hand-made data: every branch of checks.cpp,
// pinned by id, verdict and numbers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../chapters/01_kernel_launch/options.hpp"  // kDefaultN
#include "checks.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::correct;
using lab_test::has_id;
using lab_test::value;

constexpr double kL2 = 50.0 * 1024 * 1024;  // a 50 MiB L2, as on the H100

// n floats: the copy moves 8n bytes, the add 12n. With the copy at 1.0 ms and
// an add at 1.5 ms both run at the same bandwidth (100 % of the copy).
ch01::VariantsRun run_of(std::int64_t n, double l2_bytes, double add_ms, double other_ms) {
  ch01::VariantsRun run;
  run.n = n;
  run.l2_bytes = l2_bytes;
  run.copy_samples = {1.0, 1.0, 1.0};
  const auto count = static_cast<std::size_t>(n);
  run.variants = {{"one thread per element", 4096, 256, {other_ms}, correct(count), correct(count)},
                  {"grid-stride", 1056, 256, {add_ms}, correct(count), correct(count)}};
  return run;
}

}  // namespace

TEST_CASE("variants: bandwidth and percentage of the copy are computed from the medians") {
  const ch01::VariantsRun run = run_of(1000, 1e9, 1.5, 3.0);
  const lab::ResultTable table = ch01::variants_table(run);
  CHECK(table.id() == "variants");
  REQUIRE(table.rows().size() == 3);
  CHECK(lab_test::cell(table, "device-to-device copy", "bandwidth_gbps") == doctest::Approx(8000 / 1e6));
  CHECK(lab_test::cell(table, "grid-stride", "percent_of_copy") == doctest::Approx(100.0));
  CHECK(lab_test::cell(table, "one thread per element", "percent_of_copy") == doctest::Approx(50.0));
  CHECK(table.row("grid-stride").get("grid").integer() == 1056);
  CHECK(lab_test::cell(table, "grid-stride", "median") == 1.5);
  CHECK(ch01::percent_of_copy(run, run.variants[0]) == doctest::Approx(50.0));
}

TEST_CASE("variants: correct results pass, a wrong one fails, first run and after timing apart") {
  ch01::VariantsRun run = run_of(1000, 1e9, 1.5, 3.0);
  for (const auto& f : ch01::variants_checks(run)) CHECK(f.passed);
  run.variants[1].after = lab_test::wrong();
  const auto findings = ch01::variants_checks(run);
  CHECK(by_id(findings, "first_run_correct.grid_stride").passed);
  CHECK(by_id(findings, "first_run_correct.one_thread_per_element").passed);
  CHECK_FALSE(by_id(findings, "correct_after_timing.grid_stride").passed);
  CHECK(by_id(findings, "correct_after_timing.grid_stride").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(findings, "correct_after_timing.one_thread_per_element").passed);
}

TEST_CASE("variants: without variants there are no findings") {
  ch01::VariantsRun run = run_of(ch01::kDefaultN, 1e9, 1.5, 3.0);
  run.variants.clear();
  CHECK(ch01::variants_checks(run).empty());
}

TEST_CASE("variants: the page's benchmark is judged only at the default n, met or not, naming the best variant") {
  CHECK_FALSE(has_id(ch01::variants_checks(run_of(1000, 1e9, 1.5, 3.0)), "benchmark"));
  const auto met = ch01::variants_checks(run_of(ch01::kDefaultN, 1e9, 1.5, 3.0));
  CHECK(by_id(met, "benchmark").id == "benchmark.met");
  CHECK(by_id(met, "benchmark").kind == lab::Finding::Kind::observation);
  CHECK(value(met, "benchmark", "best_percent") == doctest::Approx(100.0));
  CHECK(by_id(met, "benchmark").value("best_variant").text() == "grid-stride");
  const auto missed = ch01::variants_checks(run_of(ch01::kDefaultN, 1e9, 1.8, 3.0));
  CHECK(by_id(missed, "benchmark").id == "benchmark.not_met");
  CHECK(value(missed, "benchmark", "best_percent") == doctest::Approx(83.333).epsilon(1e-4));
  // The other variant faster: it is the one named.
  const auto other = ch01::variants_checks(run_of(ch01::kDefaultN, 1e9, 3.0, 1.5));
  CHECK(by_id(other, "benchmark").value("best_variant").text() == "one thread per element");
}

TEST_CASE("variants: the note counts n in the project's notation and gives a, b and c as a multiple of the L2") {
  // 64Mi floats: a, b and c are 768 MiB, 15.4 times a 50 MiB L2.
  const std::string note = ch01::variants_table(run_of(ch01::kDefaultN, kL2, 1.5, 3.0)).render();
  CHECK(note.find("64Mi floats per vector") != std::string::npos);
  CHECK(note.find("768 MiB, 15.4 times") != std::string::npos);
  CHECK(note.find("50 MiB L2") != std::string::npos);
}

TEST_CASE("launch return: early return and waiting synchronisation pass; a blocking launch fails") {
  const auto good = ch01::launch_return_checks({0.004, 20.0, 20.1});
  CHECK(by_id(good, "launch_returns_early").passed);
  CHECK(by_id(good, "launch_returns_early").kind == lab::Finding::Kind::timing);
  CHECK(value(good, "launch_returns_early", "launch_call_us") == doctest::Approx(4.0));
  CHECK(value(good, "launch_returns_early", "kernel_ms") == doctest::Approx(20.0));
  CHECK(by_id(good, "sync_waits").passed);
  CHECK(value(good, "sync_waits", "until_sync_ms") == doctest::Approx(20.1));
  CHECK_FALSE(by_id(ch01::launch_return_checks({19.0, 20.0, 20.1}), "launch_returns_early").passed);
  CHECK_FALSE(by_id(ch01::launch_return_checks({0.004, 20.0, 1.0}), "sync_waits").passed);
  const lab::ResultTable table = ch01::launch_return_table({0.004, 20.0, 20.1});
  CHECK(table.id() == "launch_return");
  CHECK(table.rows().size() == 3);
  // The events sit around the launch on an idle stream: they hold the launch gap too (chapter 03).
  CHECK_NOTHROW(table.row("events around the launch (kernel + launch gap)"));
}

TEST_CASE("launch error: reported and carried on passes; unreported or a failed next launch fails") {
  ch01::LaunchErrorDemo demo{2048, 9, "cudaErrorInvalidConfiguration (invalid configuration argument)", true};
  for (const auto& f : ch01::launch_error_checks(demo)) CHECK(f.passed);
  CHECK(value(ch01::launch_error_checks(demo), "error_reported", "error_code") == 9);
  const lab::ResultTable table = ch01::launch_error_table(demo, 1024);
  CHECK(table.id() == "launch_error");
  CHECK(table.row("this GPU's limit").get("value").integer() == 1024);
  demo.error_code = 0;
  CHECK_FALSE(by_id(ch01::launch_error_checks(demo), "error_reported").passed);
  demo.later_launch_ok = false;
  CHECK_FALSE(by_id(ch01::launch_error_checks(demo), "carries_on").passed);
}

TEST_CASE("limits: this GPU's values beside compute capability 1.x") {
  lab::DeviceInfo d;
  d.max_threads_per_block = 1024;
  d.max_block_dim[0] = 1024;
  d.max_block_dim[1] = 1024;
  d.max_block_dim[2] = 64;
  d.shared_per_block = 48 * 1024;
  d.shared_per_block_optin = 227 * 1024;
  d.sm_count = 132;
  const lab::ResultTable table = ch01::limits_table(d);
  CHECK(table.id() == "limits");
  CHECK(table.row("threads per block").get("this_gpu").integer() == 1024);
  CHECK(table.row("block dimensions (x, y, z)").get("this_gpu").text() == "1024, 1024, 64");
  CHECK(table.row("shared memory per block [KiB]").get("this_gpu").text() == "48 (227 opt-in)");
  CHECK(table.row("multiprocessors").get("this_gpu").integer() == 132);
}
