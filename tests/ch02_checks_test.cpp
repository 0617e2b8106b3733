// Chapter 02's checks, tables, options and documented expectations on hand-made data:
// every branch, pinned by id, verdict and numbers, without a GPU.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "../chapters/02_sync_pitfalls/options.hpp"
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "support/options_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::correct;
using lab_test::has_id;
using lab_test::value;
using lab_test::wrong;

ch02::CaseRun case_run(ch02::SyncCase sync_case, std::vector<double> samples, double backlog_ms,
                       lab::Comparison result = {}) {
  ch02::CaseRun run;
  run.sync_case = sync_case;
  run.samples_ms = std::move(samples);
  run.backlog_ms = backlog_ms;
  run.result = result;
  return run;
}

// The H100 shape of section 1: a 0.0054 ms kernel, a 2 ms backlog.
ch02::HostTimerRun short_kernel_run(lab::Comparison result = correct()) {
  ch02::HostTimerRun run;
  run.id = "add";
  run.kernel = "c = a + b (1024 floats)";
  run.runs = 4;
  run.warmup = 10;
  run.backlog_kernel_ms = 2.0;
  run.kernel_ms = {0.0054, 0.0055, 0.0053};
  run.cases = {case_run(ch02::SyncCase::before_and_after, {0.024, 0.013, 0.013, 0.012}, 2.06, result),
               case_run(ch02::SyncCase::before_only, {0.012, 0.005, 0.005, 0.006}, 2.06, result),
               case_run(ch02::SyncCase::after_only, {2.008, 0.013, 0.013, 0.014}, 2.06, result),
               case_run(ch02::SyncCase::never, {0.006, 0.005, 0.005, 0.005}, 2.06, result)};
  return run;
}

// The H100 shape of section 2: a 10 ms kernel, no output to check.
ch02::HostTimerRun long_kernel_run(double no_sync_ms = 0.005) {
  ch02::HostTimerRun run;
  run.id = "long_kernel";
  run.kernel = "a kernel spinning 10.0 ms";
  run.runs = 3;
  run.kernel_ms = {10.0, 10.0};
  run.cases = {case_run(ch02::SyncCase::before_and_after, {10.07, 10.04, 10.04}, 102.0),
               case_run(ch02::SyncCase::before_only, {0.052, 0.037, 0.030}, 102.0),
               case_run(ch02::SyncCase::after_only, {111.9, 10.04, 10.04}, 102.0),
               case_run(ch02::SyncCase::never, {0.005, no_sync_ms, no_sync_ms}, 102.0)};
  return run;
}

// What the table says the timer of one case contained.
std::string contained(const ch02::HostTimerRun& run, ch02::SyncCase sync_case) {
  return ch02::host_timer_table(run).row(ch02::case_name(sync_case)).get("contained").text();
}

ch02::CallProbe probe(ch02::HostCall call, ch02::WorkSetup setup, bool waited, lab::Comparison data = {}) {
  ch02::CallProbe p;
  p.call = call;
  p.setup = setup;
  p.work_ms = 20.0;
  p.returned_after_ms = waited ? 20.1 : 0.01;
  p.work_done_at_return = waited;
  p.alone_ms = 0.01;
  p.data = data;
  return p;
}

// A run of one setup in which every call did what the documentation (and the
// H100) says: stream 0 waits for the work in (a) and (d), not in (b) and (c).
ch02::ImplicitSyncRun documented_run(ch02::WorkSetup setup) {
  const bool ordered = ch02::stream_zero_waits_for_work(setup);
  lab::Comparison copied = ordered ? correct() : wrong();
  if (!ordered) copied.mismatches = copied.count;  // every value read was the NaN poison
  ch02::ImplicitSyncRun run;
  run.queued_ms = 20.0;
  run.probes = {probe(ch02::HostCall::kernel_launch, setup, false, copied),
                probe(ch02::HostCall::memcpy_async_pinned, setup, false, copied),
                probe(ch02::HostCall::memcpy_async_pageable, setup, ordered, copied),
                probe(ch02::HostCall::memcpy_blocking, setup, ordered, copied),
                probe(ch02::HostCall::cuda_malloc, setup, false),
                probe(ch02::HostCall::cuda_free, setup, true),
                probe(ch02::HostCall::read_one_value, setup, true, correct(1))};
  return run;
}

ch02::CallProbe& probe_of(ch02::ImplicitSyncRun& run, ch02::HostCall call) {
  for (ch02::CallProbe& p : run.probes) {
    if (p.call == call) return p;
  }
  throw std::out_of_range("no such probe");
}

ch02::Placement placement(double work_then_read_ms, double read_then_work_ms) {
  ch02::Placement p;
  p.gpu_ms = 10.0;
  p.cpu_ms = 8.0;
  p.work_then_read_ms = work_then_read_ms;
  p.read_then_work_ms = read_then_work_ms;
  p.work_then_read = correct();
  p.read_then_work = correct();
  return p;
}

// The message ch02's options give @p args, or "" when they are valid.
std::string usage_error(std::vector<const char*> args) {
  return lab_test::usage_error<ch02::Options>(ch02::add_options, std::move(args));
}

}  // namespace

// --- Options ----------------------------------------------------------------------

TEST_CASE("options: ranges, and the memory a run needs") {
  CHECK(usage_error({"--runs", "0"}).find("--runs") != std::string::npos);  // refused, naming the option
  CHECK(usage_error({"--cpu-ms", "0.01"}).find("--cpu-ms") != std::string::npos);
  CHECK(usage_error({"--queued-ms", "0"}).find("--queued-ms") != std::string::npos);
  CHECK(usage_error({"--n", "-1"}).find("--n") != std::string::npos);
  CHECK(usage_error({"--n", "1Mi", "--runs", "3", "--backlog-ms", "0"}).empty());
  CHECK(usage_error({"--n", "0"}).empty());
  ch02::Options options;
  CHECK(options.n == 0);  // sized from the GPU
  options.n = 1000;
  // Section 1's a, b and c (3 x 4 bytes per element) against sections 3 and 4's 1Mi floats: a, b, c and
  // section 3's copy on the device (4 x 4 MiB), a, the CPU's c and three copies on the host (5 x 4 MiB).
  const lab::MemoryNeed small = ch02::memory_need(options, 1000);
  CHECK(small.device_bytes == doctest::Approx(16.0 * ch02::kReadN));
  CHECK(small.host_bytes == doctest::Approx(20.0 * ch02::kReadN));
  CHECK(small.what == "--n 1000");
  const lab::MemoryNeed large = ch02::memory_need(options, 1000000000);
  CHECK(large.device_bytes == doctest::Approx(12e9));
  CHECK(large.host_bytes == doctest::Approx(12e9));
  CHECK(lab::check_memory_fits(large, 12000000000, 12000000000).empty());
  CHECK_FALSE(lab::check_memory_fits(large, 11999999999, 12000000000).empty());
  CHECK_FALSE(lab::check_memory_fits(large, 12000000000, 11999999999).empty());
  options.n = 0;
  CHECK(ch02::memory_need(options, 40 << 20).what == "--n 0 (40Mi, from this GPU's memory rate)");
}

TEST_CASE("section 1's n: --n when given, else about kTimedAddUs of 12 bytes per element at the memory rate") {
  // An H100 SXM: 2619 MHz x 2 x 5120 bits / 8 = 3.35 TB/s; an H200: 3201 MHz, 6016 bits: 4.82 TB/s.
  const double h100 = ch02::nominal_memory_bytes_per_second(2619.0, 5120);
  CHECK(h100 == doctest::Approx(3.352e12).epsilon(1e-3));
  const double h200 = ch02::nominal_memory_bytes_per_second(3201.0, 6016);
  CHECK(h200 == doctest::Approx(4.815e12).epsilon(1e-3));
  ch02::Options options;
  // 100 us x 3.35 TB/s / 12 B = 27.9M floats: 27Mi (26.6 rounds up); on the H200 38Mi (38.3).
  CHECK(ch02::timed_add_n(options, h100) == std::int64_t{27} << 20);
  CHECK(ch02::timed_add_n(options, h200) == std::int64_t{38} << 20);
  // A GPU of 320 GB/s: 2.5Mi floats, rounded to 3Mi; a rate that is not known: 1Mi.
  CHECK(ch02::timed_add_n(options, 320e9) == std::int64_t{3} << 20);
  CHECK(ch02::timed_add_n(options, 0.0) == std::int64_t{1} << 20);
  CHECK(ch02::nominal_memory_bytes_per_second(0.0, 5120) == 0.0);
  options.n = 1000;
  CHECK(ch02::timed_add_n(options, h200) == 1000);  // --n wins
}

// --- Sections 1 and 2 ------------------------------------------------------------

TEST_CASE("the four cases: names and where they synchronise") {
  CHECK(std::string(ch02::case_name(ch02::SyncCase::before_and_after)) == "sync before and after");
  CHECK(std::string(ch02::case_name(ch02::SyncCase::never)) == "no sync");
  CHECK(ch02::syncs_before(ch02::SyncCase::before_only));
  CHECK_FALSE(ch02::syncs_after(ch02::SyncCase::before_only));
  CHECK(ch02::syncs_after(ch02::SyncCase::after_only));
  CHECK_FALSE(ch02::syncs_before(ch02::SyncCase::after_only));
  CHECK_FALSE(ch02::syncs_before(ch02::SyncCase::never));
  CHECK_FALSE(ch02::syncs_after(ch02::SyncCase::never));
}

TEST_CASE("first_run_held_backlog: the first reading exceeds the median by half the backlog or more") {
  using ch02::SyncCase;
  CHECK(ch02::first_run_held_backlog(case_run(SyncCase::after_only, {2.008, 0.013, 0.013}, 2.06)));
  SUBCASE("less than half of it landed") {
    CHECK_FALSE(ch02::first_run_held_backlog(case_run(SyncCase::after_only, {0.9, 0.013, 0.013}, 2.06)));
  }
  SUBCASE("a backlog too short to see") {
    CHECK_FALSE(ch02::first_run_held_backlog(case_run(SyncCase::after_only, {0.02, 0.013, 0.013}, 0.005)));
  }
  SUBCASE("no readings") { CHECK_FALSE(ch02::first_run_held_backlog(case_run(SyncCase::after_only, {}, 2.0))); }
}

TEST_CASE("host_timer_table: events on a held stream, then one row per case, every value declared once") {
  const lab::ResultTable table = ch02::host_timer_table(short_kernel_run());
  CHECK(table.id() == "host_timer_add");
  REQUIRE(table.rows().size() == 5);
  const auto& alone = table.row("events on a held stream");  // not "the kernel": the events' cost is in it
  CHECK(alone.get("median").number() == doctest::Approx(0.0054));
  CHECK(alone.get("first_ms").number() == doctest::Approx(0.0054));
  const auto& after = table.row("sync after only");
  CHECK(after.get("first_ms").number() == doctest::Approx(2.008));
  CHECK(after.get("median").number() == doctest::Approx(0.0135));
  CHECK(after.get("backlog_ms").number() == doctest::Approx(2.06));
  CHECK(after.get("first_run_held_backlog").boolean());
  CHECK_FALSE(table.row("sync before and after").get("first_run_held_backlog").boolean());
  CHECK(ch02::host_timer_table(long_kernel_run()).id() == "host_timer_long_kernel");
  SUBCASE("without event samples there is no reference row") {
    ch02::HostTimerRun run = short_kernel_run();
    run.kernel_ms.clear();
    CHECK(ch02::host_timer_table(run).rows().size() == 4);
  }
}

TEST_CASE("host_timer_table: what the timer contained, derived from the readings, the kernel and the backlog") {
  using ch02::SyncCase;
  ch02::HostTimerRun run = long_kernel_run();
  CHECK(contained(run, SyncCase::after_only) == "backlog (first run) + launch + kernel + sync");
  CHECK(contained(run, SyncCase::before_and_after) == "launch + kernel + sync");
  CHECK(contained(run, SyncCase::never) == "the launch call only");
  // A kernel as short as a launch: the times cannot tell.
  CHECK(contained(short_kernel_run(), SyncCase::before_only) ==
        "the launch call; too close to the held-stream events' reading to tell");
  SUBCASE("a sync after the launch, yet shorter than the kernel") {
    run.cases[0].samples_ms = {0.01, 0.01};
    CHECK(contained(run, SyncCase::before_and_after) == "less than the kernel: the sync did not wait for it");
  }
  SUBCASE("no readings") {
    run.cases[3].samples_ms.clear();
    CHECK(contained(run, SyncCase::never) == "-");
  }
}

TEST_CASE("host_timer_checks: the kernel's output after every case") {
  SUBCASE("correct after all four") {
    const auto findings = ch02::host_timer_checks(short_kernel_run());
    CHECK(by_id(findings, "add_correct").kind == lab::Finding::Kind::correctness);
    CHECK(by_id(findings, "add_correct").passed);
    CHECK(value(findings, "add_correct", "wrong_cases") == 0);
  }
  SUBCASE("wrong after one") {
    ch02::HostTimerRun run = short_kernel_run();
    run.cases[1].result = wrong();
    const auto findings = ch02::host_timer_checks(run);
    CHECK_FALSE(by_id(findings, "add_correct").passed);
    CHECK(value(findings, "add_correct", "wrong_cases") == 1);
  }
  SUBCASE("nothing to check (a spin kernel writes nothing)") {
    CHECK(ch02::host_timer_checks(long_kernel_run()).empty());
  }
}

TEST_CASE("long_kernel_checks: without a sync after, the timer reads under a tenth") {
  SUBCASE("it does") {
    const auto findings = ch02::long_kernel_checks(long_kernel_run());
    const lab::Finding& f = by_id(findings, "long_kernel_unsynced_under_tenth");
    CHECK(f.kind == lab::Finding::Kind::timing);
    CHECK(f.passed);
    CHECK(value(findings, "long_kernel_unsynced_under_tenth", "no_sync_ms") == doctest::Approx(0.005));
    CHECK(value(findings, "long_kernel_unsynced_under_tenth", "before_only_ms") == doctest::Approx(0.037));
    CHECK(value(findings, "long_kernel_unsynced_under_tenth", "synced_ms") == doctest::Approx(10.04));
  }
  SUBCASE("it does not (the launch queue was full, say)") {
    CHECK_FALSE(by_id(ch02::long_kernel_checks(long_kernel_run(5.0)), "long_kernel_unsynced_under_tenth").passed);
  }
  SUBCASE("a case missing: nothing to judge") {
    ch02::HostTimerRun run = long_kernel_run();
    run.cases.pop_back();
    CHECK_FALSE(has_id(ch02::long_kernel_checks(run), "long_kernel_unsynced_under_tenth"));
  }
  SUBCASE("it also checks the output when there is one") {
    ch02::HostTimerRun run = short_kernel_run();
    CHECK(has_id(ch02::long_kernel_checks(run), "add_correct"));
  }
}

// --- Section 3 --------------------------------------------------------------------

TEST_CASE("the documented expectations keep their condition") {
  using ch02::HostCall;
  using ch02::WorkSetup;
  // The copies and the launch on stream 0 run after the work exactly when stream 0 waits for its stream.
  for (WorkSetup setup : ch02::kAllSetups) {
    CAPTURE(ch02::setup_label(setup));
    const bool ordered = ch02::stream_zero_waits_for_work(setup);
    CHECK(ch02::ordered_after_work(HostCall::kernel_launch, setup) == ordered);
    CHECK(ch02::ordered_after_work(HostCall::memcpy_async_pinned, setup) == ordered);
    CHECK(ch02::ordered_after_work(HostCall::memcpy_async_pageable, setup) == ordered);
    CHECK(ch02::ordered_after_work(HostCall::memcpy_blocking, setup) == ordered);
    CHECK(ch02::ordered_after_work(HostCall::read_one_value, setup));
    CHECK_FALSE(ch02::ordered_after_work(HostCall::cuda_malloc, setup));  // they queue nothing
    CHECK_FALSE(ch02::ordered_after_work(HostCall::cuda_free, setup));
    // Promised: cudaMemcpy's wait when its copy is ordered after the work; the read on the work's stream.
    CHECK(ch02::promised_wait(HostCall::memcpy_blocking, setup) == ordered);
    CHECK(ch02::promised_wait(HostCall::read_one_value, setup));
    for (HostCall call : {HostCall::kernel_launch, HostCall::memcpy_async_pinned, HostCall::memcpy_async_pageable,
                          HostCall::cuda_malloc, HostCall::cuda_free}) {
      CAPTURE(ch02::host_call_name(call));
      CHECK_FALSE(ch02::promised_wait(call, setup));  // "might be synchronous", "may", silent: no promise
    }
  }
  CHECK(ch02::stream_zero_waits_for_work(WorkSetup::blocking_stream));
  CHECK_FALSE(ch02::stream_zero_waits_for_work(WorkSetup::non_blocking_stream));
  CHECK_FALSE(ch02::stream_zero_waits_for_work(WorkSetup::per_thread_blocking_stream));
  CHECK(ch02::stream_zero_waits_for_work(WorkSetup::per_thread_legacy_stream));
  CHECK_FALSE(ch02::built_per_thread(WorkSetup::blocking_stream));
  CHECK_FALSE(ch02::built_per_thread(WorkSetup::non_blocking_stream));
  CHECK(ch02::built_per_thread(WorkSetup::per_thread_blocking_stream));
  CHECK(ch02::built_per_thread(WorkSetup::per_thread_legacy_stream));
}

TEST_CASE("waited_for_work: the work was done at return, and the call took half the work longer than alone") {
  ch02::CallProbe p = probe(ch02::HostCall::memcpy_blocking, ch02::WorkSetup::blocking_stream, true);
  CHECK(ch02::waited_for_work(p));
  SUBCASE("the work was still running when it returned") {
    p.work_done_at_return = false;
    CHECK_FALSE(ch02::waited_for_work(p));
  }
  SUBCASE("a call slower than the work by itself (a large pageable copy) merely outlasted it") {
    p.alone_ms = 40.0;
    p.returned_after_ms = 40.5;
    CHECK_FALSE(ch02::waited_for_work(p));
  }
  SUBCASE("the same slow call, ordered after the work") {
    p.alone_ms = 40.0;
    p.returned_after_ms = 60.2;
    CHECK(ch02::waited_for_work(p));
  }
}

TEST_CASE("implicit_sync_table: one setup's calls, the documentation beside what happened") {
  const ch02::ImplicitSyncRun run = documented_run(ch02::WorkSetup::non_blocking_stream);
  const lab::ResultTable table = ch02::implicit_sync_table(run, ch02::WorkSetup::non_blocking_stream);
  CHECK(table.id() == "implicit_sync_b");
  CHECK(table.title().rfind("(b)", 0) == 0);
  REQUIRE(table.rows().size() == 7);
  const auto& memcpy = table.row("cudaMemcpy to pageable");
  CHECK(memcpy.get("after_the_work").text() == "no");
  CHECK(table.row("c[n-1] on the work's stream + sync").get("after_the_work").text() == "yes");
  CHECK(memcpy.get("returned_after_ms").number() == doctest::Approx(0.01));
  CHECK(memcpy.get("alone_ms").number() == doctest::Approx(0.01));
  CHECK_FALSE(memcpy.get("work_done_at_return").boolean());
  CHECK_FALSE(memcpy.get("waited").boolean());
  CHECK(table.row("cudaFree 1 MiB").get("waited").boolean());
  CHECK(memcpy.get("values_read").integer() == 1024);
  CHECK(memcpy.get("values_wrong").integer() == 1024);
  CHECK(table.row("cudaFree 1 MiB").get("values_read").is_none());
  CHECK(table.row("cudaFree 1 MiB").get("after_the_work").text() == "-");
  CHECK(table.row("cudaMalloc 1 MiB").get("after_the_work").text() == "-");
  SUBCASE("another setup's probes are not in it") {
    CHECK(ch02::implicit_sync_table(run, ch02::WorkSetup::blocking_stream).rows().empty());
  }
}

TEST_CASE("implicit_sync_table: every setup has its own id and title, (c) the per-thread blocking setup too") {
  const std::vector<std::string> ids = {"implicit_sync_a", "implicit_sync_b", "implicit_sync_c", "implicit_sync_d"};
  for (ch02::WorkSetup setup : ch02::kAllSetups) {
    const lab::ResultTable table = ch02::implicit_sync_table(documented_run(setup), setup);
    CAPTURE(ch02::setup_label(setup));
    CHECK(table.id() == ids[static_cast<std::size_t>(setup)]);
    CHECK(table.title().rfind(ch02::setup_label(setup), 0) == 0);
    CHECK(table.rows().size() == 7);
  }
  const lab::ResultTable c = ch02::implicit_sync_table(documented_run(ch02::WorkSetup::per_thread_blocking_stream),
                                                       ch02::WorkSetup::per_thread_blocking_stream);
  CHECK(c.title() !=
        ch02::implicit_sync_table(documented_run(ch02::WorkSetup::blocking_stream), ch02::WorkSetup::blocking_stream)
            .title());
  CHECK(c.row("cudaMemcpy to pageable").get("after_the_work").text() == "no");
}

TEST_CASE("implicit_sync_checks: everything as documented") {
  SUBCASE("(a) stream 0 waits for the blocking stream: two promised waits, five ordered reads") {
    const auto findings =
        ch02::implicit_sync_checks(documented_run(ch02::WorkSetup::blocking_stream), ch02::WorkSetup::blocking_stream);
    REQUIRE(findings.size() == 2);
    CHECK(by_id(findings, "documented_waits_a").kind == lab::Finding::Kind::timing);
    CHECK(by_id(findings, "documented_waits_a").passed);
    CHECK(value(findings, "documented_waits_a", "did_not_wait_count") == 0);
    CHECK(by_id(findings, "ordered_reads_a").kind == lab::Finding::Kind::correctness);
    CHECK(by_id(findings, "ordered_reads_a").passed);
    CHECK(value(findings, "ordered_reads_a", "wrong_count") == 0);
  }
  SUBCASE("(b) stream 0 does not wait for the non-blocking stream: stale reads are no failure") {
    const auto findings = ch02::implicit_sync_checks(documented_run(ch02::WorkSetup::non_blocking_stream),
                                                     ch02::WorkSetup::non_blocking_stream);
    CHECK(by_id(findings, "documented_waits_b").passed);
    CHECK(by_id(findings, "ordered_reads_b").passed);
  }
  SUBCASE("(c) and (d)") {
    CHECK(has_id(ch02::implicit_sync_checks(documented_run(ch02::WorkSetup::per_thread_blocking_stream),
                                            ch02::WorkSetup::per_thread_blocking_stream),
                 "documented_waits_c"));
    CHECK(has_id(ch02::implicit_sync_checks(documented_run(ch02::WorkSetup::per_thread_legacy_stream),
                                            ch02::WorkSetup::per_thread_legacy_stream),
                 "ordered_reads_d"));
  }
}

TEST_CASE("implicit_sync_checks: failures, and what the documentation does not promise") {
  using ch02::HostCall;
  using ch02::WorkSetup;
  SUBCASE("a call documented to wait did not") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::blocking_stream);
    probe_of(run, HostCall::memcpy_blocking).work_done_at_return = false;
    const auto findings = ch02::implicit_sync_checks(run, WorkSetup::blocking_stream);
    CHECK_FALSE(by_id(findings, "documented_waits_a").passed);
    CHECK(value(findings, "documented_waits_a", "did_not_wait_count") == 1);
  }
  SUBCASE("a call not required to wait did: allowed, not failed") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::per_thread_blocking_stream);
    probe_of(run, HostCall::memcpy_blocking).work_done_at_return = true;
    probe_of(run, HostCall::memcpy_blocking).returned_after_ms = 20.1;
    for (const lab::Finding& f : ch02::implicit_sync_checks(run, WorkSetup::per_thread_blocking_stream)) {
      CHECK(f.passed);
    }
  }
  SUBCASE("an ordered call read wrong values") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::per_thread_legacy_stream);
    probe_of(run, HostCall::memcpy_async_pinned).data = wrong();
    const auto findings = ch02::implicit_sync_checks(run, WorkSetup::per_thread_legacy_stream);
    CHECK_FALSE(by_id(findings, "ordered_reads_d").passed);
    CHECK(value(findings, "ordered_reads_d", "wrong_count") == 1);
  }
  SUBCASE("a call documented to wait, and none that did") {
    ch02::ImplicitSyncRun run;
    run.probes = {probe(HostCall::read_one_value, WorkSetup::blocking_stream, false, correct(1))};
    const auto findings = ch02::implicit_sync_checks(run, WorkSetup::blocking_stream);
    CHECK_FALSE(by_id(findings, "documented_waits_a").passed);
    CHECK(by_id(findings, "ordered_reads_a").passed);
  }
  SUBCASE("only calls that promise nothing and read nothing: no findings") {
    ch02::ImplicitSyncRun run;
    run.probes = {probe(HostCall::cuda_malloc, WorkSetup::blocking_stream, false),
                  probe(HostCall::kernel_launch, WorkSetup::non_blocking_stream, false, wrong())};
    CHECK(ch02::implicit_sync_checks(run, WorkSetup::blocking_stream).empty());
    CHECK(ch02::implicit_sync_checks(run, WorkSetup::non_blocking_stream).empty());  // not ordered: a stale read
  }
  SUBCASE("no probes of that setup: no findings") {
    CHECK(
        ch02::implicit_sync_checks(documented_run(WorkSetup::blocking_stream), WorkSetup::non_blocking_stream).empty());
  }
}

// --- Section 4 --------------------------------------------------------------------

TEST_CASE("placement_table: the two pieces alone, then the two placements beside the longer piece and the sum") {
  const lab::ResultTable table = ch02::placement_table(placement(11.1, 20.5));
  CHECK(table.id() == "placement");
  REQUIRE(table.rows().size() == 4);
  CHECK(lab_test::cell(table, "the GPU work alone (events)", "time_ms") == doctest::Approx(10.0));
  CHECK(table.row("the GPU work alone (events)").get("values_wrong").is_none());
  CHECK(lab_test::cell(table, "queue GPU work, CPU work, then read the result", "time_ms") == doctest::Approx(11.1));
  CHECK(lab_test::cell(table, "queue GPU work, CPU work, then read the result", "bound_ms") == doctest::Approx(10.0));
  CHECK(lab_test::cell(table, "queue GPU work, read the result, then CPU work", "bound_ms") == doctest::Approx(18.0));
  CHECK(table.row("queue GPU work, read the result, then CPU work").get("values_wrong").integer() == 0);
}

TEST_CASE("placement_checks") {
  SUBCASE("CPU work first overlaps") {
    const auto findings = ch02::placement_checks(placement(11.1, 20.5));
    CHECK(by_id(findings, "cpu_work_overlaps").kind == lab::Finding::Kind::timing);
    CHECK(by_id(findings, "cpu_work_overlaps").passed);
    CHECK(value(findings, "cpu_work_overlaps", "saved_ms") == doctest::Approx(9.4));
    CHECK(by_id(findings, "correct_cpu_work_first").passed);
    CHECK(by_id(findings, "correct_read_first").passed);
  }
  SUBCASE("it did not") {
    const auto findings = ch02::placement_checks(placement(20.5, 19.9));
    CHECK_FALSE(by_id(findings, "cpu_work_overlaps").passed);
    CHECK(value(findings, "cpu_work_overlaps", "saved_ms") == doctest::Approx(-0.6));
  }
  SUBCASE("a margin as small as noise is not overlap") {
    // 10 ms GPU and 8 ms CPU work: overlap would save up to 8 ms; 0.1 ms is noise.
    const auto findings = ch02::placement_checks(placement(20.0, 20.1));
    CHECK_FALSE(by_id(findings, "cpu_work_overlaps").passed);
    CHECK(value(findings, "cpu_work_overlaps", "saved_ms") == doctest::Approx(0.1));
    CHECK(value(findings, "cpu_work_overlaps", "needed_ms") == doctest::Approx(4.0));
  }
  SUBCASE("half the shorter piece saved is enough") {
    CHECK(by_id(ch02::placement_checks(placement(14.0, 18.0)), "cpu_work_overlaps").passed);
    CHECK_FALSE(by_id(ch02::placement_checks(placement(14.1, 18.0)), "cpu_work_overlaps").passed);
  }
  SUBCASE("a wrong result") {
    ch02::Placement p = placement(11.1, 20.5);
    p.read_then_work = wrong();
    p.work_then_read = wrong();
    const auto findings = ch02::placement_checks(p);
    CHECK(by_id(findings, "correct_read_first").kind == lab::Finding::Kind::correctness);
    CHECK_FALSE(by_id(findings, "correct_read_first").passed);
    CHECK_FALSE(by_id(findings, "correct_cpu_work_first").passed);
  }
}
