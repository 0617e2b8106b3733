// Chapter 01's findings on hand-made data: every branch of findings.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "findings.hpp"

namespace {

lab::Comparison exact(std::size_t count) {
  lab::Comparison c;
  c.count = count;
  return c;
}

lab::Comparison one_wrong(std::size_t count) {
  lab::Comparison c = exact(count);
  c.mismatches = 1;
  return c;
}

// n floats: the copy moves 8n bytes, the add 12n. With the copy at 1.0 ms and
// an add at 1.5 ms both run at the same bandwidth (100 % of the copy).
ch01::VariantsRun run_of(std::int64_t n, double l2_bytes, double add_ms, double other_ms) {
  ch01::VariantsRun run;
  run.n = n;
  run.l2_bytes = l2_bytes;
  run.copy_samples = {1.0, 1.0, 1.0};
  run.variants = {{"one thread per element", 4096, 256, {other_ms}, exact(n), exact(n)},
                  {"grid-stride", 1056, 256, {add_ms}, exact(n), exact(n)}};
  return run;
}

const lab::Finding& named(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const auto& f : findings) {
    if (f.name == name) return f;
  }
  FAIL("no finding named " << name);
  return findings.front();
}

bool has(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const auto& f : findings) {
    if (f.name == name) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("variants: bandwidth and percentage of the copy are computed from the medians") {
  const ch01::VariantsRun run = run_of(1000, 1e9, 1.5, 3.0);
  const lab::ResultTable table = ch01::variants_table(run);
  REQUIRE(table.rows().size() == 3);
  CHECK(table.row("device-to-device copy").get("bandwidth_gbps").number() == doctest::Approx(8000 / 1e6));
  CHECK(table.row("grid-stride").get("percent_of_copy").number() == doctest::Approx(100.0));
  CHECK(table.row("one thread per element").get("percent_of_copy").number() == doctest::Approx(50.0));
  CHECK(table.row("grid-stride").get("grid").integer() == 1056);
  CHECK(table.row("grid-stride").get("median").number() == 1.5);
}

TEST_CASE("variants: correct results pass, a wrong one fails, first run and after timing apart") {
  ch01::VariantsRun run = run_of(1000, 1e9, 1.5, 3.0);
  for (const auto& f : ch01::variants_findings(run)) CHECK(f.passed);
  run.variants[1].after = one_wrong(1000);
  const auto findings = ch01::variants_findings(run);
  CHECK(named(findings, "grid-stride matches the CPU (exact)").passed);
  CHECK_FALSE(named(findings, "grid-stride still correct after timing").passed);
  CHECK(named(findings, "grid-stride still correct after timing").kind == lab::Finding::Kind::correctness);
}

TEST_CASE("variants: the best variant is the one closest to the copy") {
  CHECK(named(ch01::variants_findings(run_of(1000, 1e9, 1.5, 3.0)), "best variant").text.find("grid-stride came") == 0);
  CHECK(named(ch01::variants_findings(run_of(1000, 1e9, 3.0, 1.5)), "best variant").text.find("one thread") == 0);
}

TEST_CASE("variants: a working set inside the L2 is a cache figure, one of 4 L2s or more a DRAM figure") {
  const auto small = named(ch01::variants_findings(run_of(1000, 50.0 * 1024 * 1024, 1.5, 3.0)), "working set");
  CHECK(small.text.find("warm-cache figures") != std::string::npos);
  const auto large = named(ch01::variants_findings(run_of(64 << 20, 50.0 * 1024 * 1024, 1.5, 3.0)), "working set");
  CHECK(large.text.find("the samples measure DRAM") != std::string::npos);
  // 60 MiB against a 50 MiB L2: larger than the cache, not by enough to call it DRAM.
  const auto between = named(ch01::variants_findings(run_of(5 << 20, 50.0 * 1024 * 1024, 1.5, 3.0)), "working set");
  CHECK(between.text.find("1.2 times the 50 MiB L2: part of each sample may still come from the cache") !=
        std::string::npos);
}

TEST_CASE("variants: the page's benchmark is judged only at n = 64Mi, met or not") {
  CHECK_FALSE(has(ch01::variants_findings(run_of(1000, 1e9, 1.5, 3.0)), "benchmark"));
  const auto met = named(ch01::variants_findings(run_of(64 << 20, 1e9, 1.5, 3.0)), "benchmark");
  CHECK(met.text.find("is met: 100.0 %") != std::string::npos);
  const auto missed = named(ch01::variants_findings(run_of(64 << 20, 1e9, 1.8, 3.0)), "benchmark");
  CHECK(missed.text.find("not met in this run: 83.3 %") != std::string::npos);
}

TEST_CASE("launch return: early return and waiting synchronisation pass; a blocking launch fails") {
  const auto good = ch01::launch_return_findings({0.004, 20.0, 20.1});
  REQUIRE(good.size() == 2);
  CHECK(good[0].passed);
  CHECK(good[0].kind == lab::Finding::Kind::timing);
  CHECK(good[0].text.find("after 4.0 us, the kernel ran 20.000 ms (5000 times longer)") != std::string::npos);
  CHECK(good[1].passed);
  const auto blocking = ch01::launch_return_findings({19.0, 20.0, 20.1});
  CHECK_FALSE(blocking[0].passed);
  const auto no_wait = ch01::launch_return_findings({0.004, 20.0, 1.0});
  CHECK_FALSE(no_wait[1].passed);
  CHECK(ch01::launch_return_table({0.004, 20.0, 20.1}).rows().size() == 3);
}

TEST_CASE("launch error: reported and carried on passes; unreported or a failed next launch fails") {
  ch01::LaunchErrorDemo demo{2048, 9, "cudaErrorInvalidConfiguration (invalid configuration argument)", true};
  for (const auto& f : ch01::launch_error_findings(demo)) CHECK(f.passed);
  CHECK(ch01::launch_error_table(demo, 1024).row("this GPU's limit").get("value").integer() == 1024);
  demo.error_code = 0;
  CHECK_FALSE(ch01::launch_error_findings(demo)[0].passed);
  demo.later_launch_ok = false;
  CHECK_FALSE(ch01::launch_error_findings(demo)[1].passed);
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
  CHECK(table.row("threads per block").get("this_gpu").integer() == 1024);
  CHECK(table.row("block dimensions (x, y, z)").get("this_gpu").text() == "1024, 1024, 64");
  CHECK(table.row("shared memory per block [KiB]").get("this_gpu").text() == "48 (227 opt-in)");
}
