// Chapter 06's checks replayed on the kept runs: the structs of data.hpp
// rebuilt from each run's JSON (samples, device fields, options), fed to the
// chapter's functions, and each verdict compared with the one the run printed.
// H200: docs/results/h200-2026-12-02e (code 37ba1db). H100: run 5 of
// 2026-11-25 (older code, same table ids and columns; its checks are the same
// but for unified_addressing, then an observation). No GPU.
//
// Not rebuilt: write_combined_intact (its round trip is in no table, only in
// the check's own text) and registration's upload.correct, which no table
// carries: it is taken from the run's own verdict, so registration_intact
// replays the per-size "contents" column only.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"

namespace {

using lab_test::by_id;
using lab_test::KeptRun;
using lab_test::samples;

constexpr const char* kH200 = lab_test::kH200Run;
constexpr const char* kH100 = lab_test::kH100Run;
constexpr const char* kChapter = "ch06_pinned_memory";

ch06::CopyCheck check_of(const nlohmann::json& row, const char* intact_word = "intact") {
  ch06::CopyCheck check;
  check.bytes = row.value("bytes", std::size_t{0});
  check.intact = row.value("data", "") == intact_word;
  return check;
}

std::vector<double> series(const nlohmann::json& row, const char* key) {
  return row.at(key).get<std::vector<double>>();
}

ch06::SweepRun sweep_of(const KeptRun& run) {
  ch06::SweepRun sweep;
  const std::vector<nlohmann::json> both = run.rows("both_directions");
  for (const nlohmann::json& row : run.rows("sweep")) {
    ch06::SizeSamples s;
    s.bytes = row.at("bytes").get<std::size_t>();
    s.pageable_h2d_ms = series(row, "pageable_h2d_ms");
    s.pageable_d2h_ms = series(row, "pageable_d2h_ms");
    s.pinned_h2d_ms = series(row, "pinned_h2d_ms");
    s.pinned_d2h_ms = series(row, "pinned_d2h_ms");
    s.pinned_h2d_isolated_ms = series(row, "pinned_h2d_isolated_ms");
    s.pinned_d2h_isolated_ms = series(row, "pinned_d2h_isolated_ms");
    const nlohmann::json together = run.row("both_directions", row.at("name").get<std::string>());
    s.both_h2d_ms = series(together, "both_h2d_ms");
    s.both_d2h_ms = series(together, "both_d2h_ms");
    s.pageable_check = check_of(row);
    s.pinned_check = check_of(row);
    sweep.sizes.push_back(s);
  }
  CHECK(both.size() == sweep.sizes.size());
  sweep.experiment_bytes = run.options().at("mib").get<std::size_t>() * 1024 * 1024;
  sweep.blocked = true;  // both tables' notes: "behind a blocked stream"
  sweep.copy_engines = run.device().at("copy_engines").get<int>();
  sweep.link_gbps = run.finding("benchmark").at("values").at("link_gbps").get<double>();
  sweep.pcie_generation = sweep.pcie_generation_now = 5;  // "PCIe Gen5 x16" in both runs' benchmark line
  sweep.pcie_width = sweep.pcie_width_now = 16;
  return sweep;  // pageable_uses_host_page_tables: false on both x86 hosts (pinned_faster was judged)
}

ch06::CallsRun calls_of(const KeptRun& run) {
  ch06::CallsRun calls;
  calls.bytes = run.options().at("mib").get<std::size_t>() * 1024 * 1024;
  for (const nlohmann::json& row : run.rows("calls")) {
    const std::string name = row.at("name").get<std::string>();
    ch06::CallTiming c;
    c.memory = name.rfind("pinned", 0) == 0 ? ch06::HostKind::pinned : ch06::HostKind::pageable;
    c.async_call = name.find("Async") != std::string::npos;
    c.returned_ms = series(row, "returned_samples_ms");
    c.done_ms = series(row, "done_samples_ms");
    c.check = check_of(row);
    calls.calls.push_back(c);
  }
  return calls;
}

ch06::CpuFreedRun cpu_freed_of(const KeptRun& run) {
  ch06::CpuFreedRun cpu;
  cpu.copy_ms = samples(run.row("cpu_freed", "the pinned copy alone (events)"));
  cpu.pageable_copy_ms = samples(run.row("cpu_freed", "the pageable copy alone (events)"));
  cpu.cpu_ms = samples(run.row("cpu_freed", "the CPU work alone"));
  const auto placement = [&](const char* name) {
    const nlohmann::json row = run.row("cpu_freed", name);
    return ch06::PlacementRun{name, samples(row), check_of(row)};
  };
  cpu.overlapped = placement("pinned, cudaMemcpyAsync, CPU work, sync");
  cpu.pageable = placement("pageable, cudaMemcpyAsync, CPU work, sync");
  cpu.early_sync = placement("pinned, cudaMemcpyAsync, sync, CPU work");
  return cpu;
}

ch06::MappedRun mapped_of(const KeptRun& run, bool same_pointer) {
  ch06::MappedRun mapped;
  mapped.unified_addressing = true;  // both devices: compute capability 9.0, 64-bit Linux
  mapped.plain_pinned_device_pointer_same = same_pointer;
  for (const nlohmann::json& row : run.rows("zero_copy")) {
    ch06::ZeroCopyPasses z;
    z.passes = row.at("passes").get<int>();
    z.copy_then_kernel_ms = series(row, "copy_then_kernel_samples_ms");
    z.zero_copy_ms = series(row, "zero_copy_samples_ms");
    z.correct = row.value("data", "") == "correct";
    mapped.passes.push_back(z);
  }
  return mapped;
}

// The verdicts each function gives on @p run's numbers, against what @p run printed.
void replay_sweep_and_calls(const KeptRun& run) {
  const std::vector<lab::Finding> sweep = ch06::sweep_checks(sweep_of(run));
  for (const char* id : {"sweep_intact", "pinned_faster", "both_directions"}) {
    CAPTURE(id);
    CHECK(by_id(sweep, id).passed == run.passed(id));
  }
  CHECK(by_id(sweep, "pinned_faster").id == "pinned_faster");      // judged, not the host-page-tables branch
  CHECK(by_id(sweep, "both_directions").id == "both_directions");  // 3 copy engines: judged
  CHECK(by_id(sweep, "benchmark").id == run.finding("benchmark").at("finding_id").get<std::string>());
  const std::vector<lab::Finding> calls = ch06::calls_checks(calls_of(run));
  for (const char* id : {"calls_intact", "pinned_async_returns"}) {
    CAPTURE(id);
    CHECK(by_id(calls, id).passed == run.passed(id));
  }
  const std::vector<lab::Finding> cpu = ch06::cpu_freed_checks(cpu_freed_of(run));
  for (const char* id : {"cpu_freed_intact", "overlap"}) {
    CAPTURE(id);
    CHECK(by_id(cpu, id).passed == run.passed(id));
  }
}

}  // namespace

TEST_CASE("ch06 replay, H200 2026-12-02e: every rebuilt check gives the verdict the run printed") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  replay_sweep_and_calls(run);
  const std::vector<lab::Finding> sweep = ch06::sweep_checks(sweep_of(run));
  CHECK(by_id(sweep, "both_directions").value("total_gbps").number() ==
        doctest::Approx(run.finding("both_directions").at("values").at("total_gbps").get<double>()));
  CHECK(by_id(sweep, "benchmark").value("gbps").number() ==
        doctest::Approx(run.finding("benchmark").at("values").at("gbps").get<double>()));
  // What 02e printed: pinned 8.0x pageable H2D and 4.7x D2H at 256 MiB; both directions 101.1 GB/s against
  // 55.4 alone, each direction slower with the other running (H2D -8.7 %, D2H -7.8 %); 55.4 GB/s of 63.0.
  CHECK(by_id(sweep, "pinned_faster").value("h2d_ratio").number() == doctest::Approx(7.997).epsilon(0.001));
  CHECK(by_id(sweep, "pinned_faster").value("d2h_ratio").number() == doctest::Approx(4.697).epsilon(0.001));
  CHECK(by_id(sweep, "both_directions").value("total_gbps").number() == doctest::Approx(101.054).epsilon(0.0001));
  CHECK(by_id(sweep, "both_directions").value("h2d_change_percent").number() == doctest::Approx(-8.726).epsilon(0.001));
  CHECK(by_id(sweep, "both_directions").value("d2h_change_percent").number() == doctest::Approx(-7.836).epsilon(0.001));
  CHECK(by_id(sweep, "benchmark").id == "benchmark.link_known");
  CHECK(by_id(sweep, "benchmark").value("gbps").number() == doctest::Approx(55.358).epsilon(0.0001));
  // Pinned cudaMemcpyAsync returned after 0.012 ms of a 4.863 ms copy; the overlapped order saved 100.2 % of
  // what a perfect overlap saves (5.186 against 10.036 ms).
  const std::vector<lab::Finding> calls = ch06::calls_checks(calls_of(run));
  CHECK(by_id(calls, "pinned_async_returns").value("returned_ms").number() == doctest::Approx(0.011974).epsilon(0.001));
  CHECK(by_id(calls, "pinned_async_returns").value("done_ms").number() == doctest::Approx(4.8627).epsilon(0.0001));
  const std::vector<lab::Finding> cpu = ch06::cpu_freed_checks(cpu_freed_of(run));
  CHECK(by_id(cpu, "overlap").value("saved_percent").number() == doctest::Approx(100.210).epsilon(0.001));

  const std::vector<lab::Finding> zero = ch06::zero_copy_checks(mapped_of(run, run.passed("unified_addressing")));
  CHECK(by_id(zero, "zero_copy_exact").passed == run.passed("zero_copy_exact"));
  CHECK(by_id(zero, "unified_addressing").passed == run.passed("unified_addressing"));

  std::vector<ch06::RegistrationRun> registration;
  for (const nlohmann::json& row : run.rows("registration")) {
    ch06::RegistrationRun r;
    r.bytes = row.at("bytes").get<std::size_t>();
    r.contents = r.copied = check_of(row);
    registration.push_back(r);
  }
  ch06::UploadRun upload;
  upload.correct = run.passed("registration_intact");  // not in any table (see the header)
  CHECK(by_id(ch06::registration_checks(registration, upload), "registration_intact").passed ==
        run.passed("registration_intact"));
}

TEST_CASE("ch06 replay, H100 run 5 of 2026-11-25: the new code's verdicts on the older run's numbers") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  // Same verdicts as run 5 printed: every check passes. Two numbers differ in
  // sign from the H200's, not in verdict: with the other direction running,
  // H2D's rate "changed" +7.6 % (H200 -6.8 %), because run 5's H2D alone
  // behind a blocked stream read a spread 42.0 GB/s at 256 MiB.
  replay_sweep_and_calls(run);
  const std::vector<lab::Finding> sweep = ch06::sweep_checks(sweep_of(run));
  CHECK(by_id(sweep, "both_directions").value("h2d_change_percent").number() > 0);
  CHECK(by_id(sweep, "benchmark").value("gbps").number() < 0.7 * sweep_of(run).link_gbps);  // 42.0 of 63.0

  // unified_addressing was an observation in run 5 ("unified_addressing.same_pointer"): the new code
  // judges it, and on that branch's data it passes.
  CHECK(run.finding("unified_addressing").at("finding_id").get<std::string>() == "unified_addressing.same_pointer");
  const std::vector<lab::Finding> zero = ch06::zero_copy_checks(mapped_of(run, true));
  CHECK(by_id(zero, "zero_copy_exact").passed == run.passed("zero_copy_exact"));
  CHECK(by_id(zero, "unified_addressing").passed);
}
