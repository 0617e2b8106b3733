// Chapter 01's checks replayed on the kept runs: the numbers the H200 (2026-12-02e, the day's fifth
// run) and the H100 (run 5 of 2026-11-25) measured, rebuilt into the chapter's run structs and fed to
// the same functions the chapter calls, so each verdict is pinned on both GPUs without one.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../chapters/01_kernel_launch/options.hpp"
#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

const char* const kVariants[] = {"one thread per element", "grid-stride", "grid-stride float4"};

// The comparison a variant's check printed: "67108864 values, max |error| 0" on both runs. The JSON keeps
// the verdict and that sentence, not the elements, so this replays the check's logic, not the data.
lab::Comparison printed_comparison(const lab_test::KeptRun& run, const std::string& id, std::int64_t n) {
  lab::Comparison c;
  c.count = static_cast<std::size_t>(n);
  c.mismatches = run.passed(id) ? 0 : 1;
  return c;
}

std::string id_of(std::string name) {
  for (char& ch : name)
    if (ch == ' ' || ch == '-') ch = '_';
  return name;
}

ch01::VariantsRun variants_run(const lab_test::KeptRun& run) {
  ch01::VariantsRun v;
  v.n = run.options().at("n").get<std::int64_t>();
  v.l2_bytes = run.device().at("l2_bytes").get<double>();
  v.copy_samples = lab_test::samples(run.row("variants", "device-to-device copy"));
  for (const char* name : kVariants) {
    const nlohmann::json row = run.row("variants", name);
    ch01::VariantRun r;
    r.name = name;
    r.grid = row.at("grid").get<std::int64_t>();
    r.block = row.at("block").get<int>();
    r.samples = lab_test::samples(row);
    r.first = printed_comparison(run, "first_run_correct." + id_of(name), v.n);
    r.after = printed_comparison(run, "correct_after_timing." + id_of(name), v.n);
    v.variants.push_back(r);
  }
  return v;
}

ch01::LaunchReturnTiming launch_return(const lab_test::KeptRun& run) {
  ch01::LaunchReturnTiming t;
  t.launch_call_ms = run.row("launch_return", "the launch call returned after").at("ms").get<double>();
  t.kernel_ms = run.row("launch_return", "events around the launch (kernel + launch gap)").at("ms").get<double>();
  t.until_sync_ms = run.row("launch_return", "cudaStreamSynchronize returned after").at("ms").get<double>();
  return t;
}

ch01::LaunchErrorDemo launch_error(const lab_test::KeptRun& run) {
  ch01::LaunchErrorDemo d;
  d.threads_per_block = run.row("launch_error", "threads per block asked for").at("value").get<int>();
  d.error_text = run.row("launch_error", "cudaGetLastError() after the launch").at("value").get<std::string>();
  d.error_code = run.finding("error_reported").at("values").at("error_code").get<int>();
  d.later_launch_ok =
      run.row("launch_error", "a valid launch afterwards").at("value").get<std::string>() == "ran and was correct";
  return d;
}

// The verdicts the new code gives on @p run's numbers, against those the run printed.
void check_verdicts_as_printed(const lab_test::KeptRun& run) {
  const ch01::VariantsRun v = variants_run(run);
  const std::vector<lab::Finding> variants = ch01::variants_checks(v);
  for (const char* name : kVariants) {
    for (const std::string& id : {"first_run_correct." + id_of(name), "correct_after_timing." + id_of(name)}) {
      CAPTURE(id);
      CHECK(lab_test::by_id(variants, id).passed == run.passed(id));
    }
  }
  const std::vector<lab::Finding> launch = ch01::launch_return_checks(launch_return(run));
  for (const char* id : {"launch_returns_early", "sync_waits"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(launch, id).passed == run.passed(id));
  }
  const std::vector<lab::Finding> error = ch01::launch_error_checks(launch_error(run));
  for (const char* id : {"error_reported", "carries_on"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(error, id).passed == run.passed(id));
  }
  // The table recomputes the bandwidths and percentages the run printed from its samples.
  const lab::ResultTable table = ch01::variants_table(v);
  for (const char* name : kVariants) {
    CAPTURE(name);
    CHECK(lab_test::cell(table, name, "percent_of_copy") ==
          doctest::Approx(run.row("variants", name).at("percent_of_copy").get<double>()).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("ch01 replay, H200 2026-12-02e: every verdict and the benchmark's branch as printed") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH200Run, "ch01_kernel_launch");
  check_verdicts_as_printed(run);
  const std::vector<lab::Finding> variants = ch01::variants_checks(variants_run(run));
  const lab::Finding& benchmark = lab_test::by_id(variants, "benchmark");
  CHECK(benchmark.id == run.finding("benchmark").at("finding_id").get<std::string>());
  CHECK(benchmark.id == "benchmark.met");
  CHECK(benchmark.value("best_variant").text() == "grid-stride float4");
  CHECK(benchmark.value("best_percent").number() == doctest::Approx(95.956).epsilon(1e-4));
}

TEST_CASE("ch01 replay, H100 run 5 of 2026-11-25: the new code's verdicts on its numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH100Run, "ch01_kernel_launch");
  check_verdicts_as_printed(run);
  // Run 5's code printed the best variant and the working set as findings of their own
  // (best_variant, working_set.dram); the new code puts the working set in the table's note and the
  // best variant in the benchmark's values. The benchmark's branch is the one run 5 printed.
  const std::vector<lab::Finding> variants = ch01::variants_checks(variants_run(run));
  const lab::Finding& benchmark = lab_test::by_id(variants, "benchmark");
  CHECK(benchmark.id == run.finding("benchmark").at("finding_id").get<std::string>());
  CHECK(benchmark.value("best_variant").text() == "grid-stride float4");
  CHECK(benchmark.value("best_percent").number() ==
        doctest::Approx(run.finding("benchmark").at("values").at("best_percent").get<double>()).epsilon(1e-9));
}
