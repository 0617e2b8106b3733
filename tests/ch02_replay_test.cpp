// Chapter 02's checks replayed on the kept runs: the numbers the H200 (2026-12-02e, the day's fifth
// run) and the H100 (run 5 of 2026-11-25) measured, rebuilt into the chapter's run structs and fed to
// the same functions the chapter calls, so each verdict (and each computed column) is pinned on both GPUs.
#include <doctest/doctest.h>

#include <cstddef>
#include <regex>
#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

// The number of values a correctness check's printed detail names ("... 39845888 values, max |error| 0").
std::size_t values_in(const std::string& detail) {
  std::smatch m;
  REQUIRE(std::regex_search(detail, m, std::regex("([0-9]+) values")));
  return static_cast<std::size_t>(std::stoull(m[1]));
}

// A comparison of @p count values, all equal to the CPU's when @p passed. The JSON keeps the
// verdict and the count, not the elements: this replays the check's logic, not the data.
lab::Comparison comparison(std::size_t count, std::size_t wrong) {
  lab::Comparison c;
  c.count = count;
  c.mismatches = wrong;
  return c;
}

// Sections 1 and 2: table "host_timer_<id>", its held-stream row and the four cases.
ch02::HostTimerRun host_timer_run(const lab_test::KeptRun& run, const std::string& id) {
  const std::string table = "host_timer_" + id;
  ch02::HostTimerRun r;
  r.id = id;
  const std::string title =
      run.rows(table).front().at("table").get<std::string>();  // "A host timer around X, four ways"
  r.kernel =
      title.substr(std::string("A host timer around ").size(),
                   title.size() - std::string("A host timer around ").size() - std::string(", four ways").size());
  r.runs = run.options().at("runs").get<int>();
  r.warmup = run.options().at("warmup").get<int>();
  r.backlog_kernel_ms = run.options().at("backlog-ms").get<double>();
  r.kernel_ms = lab_test::samples(run.row(table, "events on a held stream"));
  // Section 1 checks the kernel's result after each case; section 2's spin kernel has none.
  const bool checked = id == "add";
  const std::size_t count = checked ? values_in(run.finding("add_correct").at("detail").get<std::string>()) : 0;
  for (ch02::SyncCase c : ch02::kAllCases) {
    const nlohmann::json row = run.row(table, ch02::case_name(c));
    ch02::CaseRun cr;
    cr.sync_case = c;
    cr.samples_ms = lab_test::samples(row);
    cr.backlog_ms = row.at("backlog_ms").get<double>();
    if (checked) cr.result = comparison(count, run.passed("add_correct") ? 0 : 1);
    r.cases.push_back(cr);
  }
  return r;
}

// What "the timer contained" and the backlog flag come to on the run's readings, against the run's.
void check_timer_columns(const lab_test::KeptRun& run, const ch02::HostTimerRun& r) {
  const lab::ResultTable table = ch02::host_timer_table(r);
  for (const nlohmann::json& row : run.rows(table.id())) {
    const std::string name = row.at("name").get<std::string>();
    CAPTURE(name);
    CHECK(table.row(name).get("contained").text() == row.at("contained").get<std::string>());
    if (row.contains("first_run_held_backlog"))
      CHECK(table.row(name).get("first_run_held_backlog").boolean() == row.at("first_run_held_backlog").get<bool>());
  }
}

// Section 3: the seven probes of each setup, from tables implicit_sync_a..d.
ch02::ImplicitSyncRun implicit_sync_run(const lab_test::KeptRun& run) {
  ch02::ImplicitSyncRun r;
  r.queued_ms = run.options().at("queued-ms").get<double>();
  for (ch02::WorkSetup setup : ch02::kAllSetups) {
    const std::string table = std::string("implicit_sync_") + "abcd"[static_cast<int>(setup)];
    for (ch02::HostCall call : ch02::kAllHostCalls) {
      const nlohmann::json row = run.row(table, ch02::host_call_name(call));
      ch02::CallProbe p;
      p.call = call;
      p.setup = setup;
      p.work_ms = row.at("work_ms").get<double>();
      p.returned_after_ms = row.at("returned_after_ms").get<double>();
      p.work_done_at_return = row.at("work_done_at_return").get<bool>();
      p.alone_ms = row.at("alone_ms").get<double>();
      if (row.contains("values_read"))
        p.data = comparison(row.at("values_read").get<std::size_t>(), row.at("values_wrong").get<std::size_t>());
      r.probes.push_back(p);
    }
  }
  return r;
}

// Section 4: the four times and the two reads' results.
ch02::Placement placement(const lab_test::KeptRun& run) {
  ch02::Placement p;
  p.gpu_ms = run.row("placement", "the GPU work alone (events)").at("time_ms").get<double>();
  p.cpu_ms = run.row("placement", "the CPU work alone (host timer)").at("time_ms").get<double>();
  const nlohmann::json first = run.row("placement", "queue GPU work, CPU work, then read the result");
  const nlohmann::json second = run.row("placement", "queue GPU work, read the result, then CPU work");
  p.work_then_read_ms = first.at("time_ms").get<double>();
  p.read_then_work_ms = second.at("time_ms").get<double>();
  const std::size_t count = values_in(run.finding("correct_cpu_work_first").at("detail").get<std::string>());
  p.work_then_read = comparison(count, first.at("values_wrong").get<std::size_t>());
  p.read_then_work = comparison(count, second.at("values_wrong").get<std::size_t>());
  return p;
}

void check_same(const std::vector<lab::Finding>& findings, const lab_test::KeptRun& run, const std::string& id) {
  CAPTURE(id);
  CHECK(lab_test::by_id(findings, id).passed == run.passed(id));
}

// Every check of the chapter, and the columns its functions compute, as @p run printed them.
void check_verdicts_as_printed(const lab_test::KeptRun& run) {
  const ch02::HostTimerRun add = host_timer_run(run, "add");
  check_timer_columns(run, add);
  check_same(ch02::host_timer_checks(add), run, "add_correct");

  const ch02::HostTimerRun long_kernel = host_timer_run(run, "long_kernel");
  check_timer_columns(run, long_kernel);
  const std::vector<lab::Finding> long_findings = ch02::long_kernel_checks(long_kernel);
  check_same(long_findings, run, "long_kernel_unsynced_under_tenth");
  CHECK(lab_test::value(long_findings, "long_kernel_unsynced_under_tenth", "synced_ms") ==
        doctest::Approx(run.finding("long_kernel_unsynced_under_tenth").at("values").at("synced_ms").get<double>()));

  const ch02::ImplicitSyncRun probes = implicit_sync_run(run);
  for (ch02::WorkSetup setup : ch02::kAllSetups) {
    const std::string suffix = std::string("_") + "abcd"[static_cast<int>(setup)];
    const std::vector<lab::Finding> findings = ch02::implicit_sync_checks(probes, setup);
    check_same(findings, run, "documented_waits" + suffix);
    check_same(findings, run, "ordered_reads" + suffix);
    // "waited" and "after the work? (docs)", row by row, recomputed from the probe's numbers.
    const lab::ResultTable table = ch02::implicit_sync_table(probes, setup);
    for (const nlohmann::json& row : run.rows(table.id())) {
      const std::string name = row.at("name").get<std::string>();
      CAPTURE(name);
      CHECK(table.row(name).get("waited").boolean() == row.at("waited").get<bool>());
      CHECK(table.row(name).get("after_the_work").text() == row.at("after_the_work").get<std::string>());
    }
  }

  const std::vector<lab::Finding> placed = ch02::placement_checks(placement(run));
  for (const char* id : {"correct_cpu_work_first", "correct_read_first", "cpu_work_overlaps"})
    check_same(placed, run, id);
}

}  // namespace

TEST_CASE("ch02 replay, H200 2026-12-02e: every verdict and computed column as printed") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH200Run, "ch02_sync_pitfalls");
  check_verdicts_as_printed(run);
  // What the run printed: all 13 checks passed.
  for (const char* id :
       {"add_correct", "long_kernel_unsynced_under_tenth", "documented_waits_a", "ordered_reads_a",
        "documented_waits_b", "ordered_reads_b", "documented_waits_c", "ordered_reads_c", "documented_waits_d",
        "ordered_reads_d", "correct_cpu_work_first", "correct_read_first", "cpu_work_overlaps"}) {
    CAPTURE(id);
    CHECK(run.passed(id));
  }
  CHECK(run.finding("long_kernel_unsynced_under_tenth").at("values").at("synced_ms").get<double>() ==
        doctest::Approx(10.011).epsilon(1e-4));
  CHECK(run.finding("cpu_work_overlaps").at("values").at("saved_ms").get<double>() ==
        doctest::Approx(9.878).epsilon(1e-4));
  // Section 1's kernel is sized from the GPU (38Mi floats here): its unsynchronised timers read
  // under half the held-stream events, so "the timer contained" can say "the launch call only".
  const lab::ResultTable add = ch02::host_timer_table(host_timer_run(run, "add"));
  CHECK(add.row("no sync").get("contained").text() == "the launch call only");
  CHECK(add.row("sync after only").get("first_run_held_backlog").boolean());
}

TEST_CASE("ch02 replay, H100 run 5 of 2026-11-25: the new code's verdicts on its numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH100Run, "ch02_sync_pitfalls");
  check_verdicts_as_printed(run);
  // Run 5 timed section 1 at the old default, --n 1Mi (about 5 us on an H100): the unsynchronised
  // timers read as much as the held-stream events, and the new code, like run 5's, says so.
  const lab::ResultTable add = ch02::host_timer_table(host_timer_run(run, "add"));
  CHECK(add.row("no sync").get("contained").text() ==
        "the launch call; too close to the held-stream events' reading to tell");
}
