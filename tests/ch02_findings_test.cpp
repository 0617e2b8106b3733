// Chapter 02's findings on hand-made data: every branch of every function in
// chapters/02_sync_pitfalls/findings.hpp, without a GPU.
#include <doctest/doctest.h>

#include "support/findings_support.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "findings.hpp"

namespace {

using lab_test::contains;

// Is @p part not in @p text?
bool lacks(const std::string& text, const std::string& part) { return text.find(part) == std::string::npos; }


lab::Comparison correct(std::size_t count) {
  lab::Comparison c;
  c.count = count;
  return c;
}

lab::Comparison wrong(std::size_t count, std::size_t mismatches) {
  lab::Comparison c;
  c.count = count;
  c.mismatches = mismatches;
  c.first.push_back({0, 1.0, std::numeric_limits<double>::quiet_NaN()});
  return c;
}

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
ch02::HostTimerRun short_kernel_run(lab::Comparison result = correct(1024)) {
  ch02::HostTimerRun run;
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
  run.kernel = "a kernel spinning 10.0 ms";
  run.runs = 3;
  run.kernel_ms = {10.0, 10.0};
  run.cases = {case_run(ch02::SyncCase::before_and_after, {10.07, 10.04, 10.04}, 102.0),
               case_run(ch02::SyncCase::before_only, {0.052, 0.037, 0.030}, 102.0),
               case_run(ch02::SyncCase::after_only, {111.9, 10.04, 10.04}, 102.0),
               case_run(ch02::SyncCase::never, {0.005, no_sync_ms, no_sync_ms}, 102.0)};
  return run;
}

// The first finding whose name holds @p name_part (a copy: the list is often a temporary).
std::optional<lab::Finding> find(const std::vector<lab::Finding>& findings, const std::string& name_part) {
  for (const lab::Finding& f : findings) {
    if (f.name.find(name_part) != std::string::npos) return f;
  }
  return std::nullopt;
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
  const lab::Comparison copied = ordered ? correct(1024) : wrong(1024, 1024);
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
  p.cpu_ms = 10.0;
  p.work_then_read_ms = work_then_read_ms;
  p.read_then_work_ms = read_then_work_ms;
  p.work_then_read = correct(1024);
  p.read_then_work = correct(1024);
  return p;
}

}  // namespace

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

TEST_CASE("timer_contents is derived from the readings, the kernel's time and the backlog") {
  using ch02::SyncCase;
  const double kernel = 10.0;
  SUBCASE("sync after, the backlog in the first run") {
    CHECK(ch02::timer_contents(case_run(SyncCase::after_only, {111.9, 10.04, 10.04}, 102.0), kernel) ==
          "backlog (first run) + launch + kernel + sync");
  }
  SUBCASE("sync after, no backlog") {
    CHECK(ch02::timer_contents(case_run(SyncCase::before_and_after, {10.07, 10.04}, 102.0), kernel) ==
          "launch + kernel + sync");
  }
  SUBCASE("sync after, yet shorter than the kernel") {
    CHECK(ch02::timer_contents(case_run(SyncCase::before_and_after, {0.01, 0.01}, 0.0), kernel) ==
          "less than the kernel: the sync did not wait for it");
  }
  SUBCASE("no sync after, far shorter than the kernel") {
    CHECK(ch02::timer_contents(case_run(SyncCase::never, {0.005, 0.004}, 102.0), kernel) == "the launch call only");
  }
  SUBCASE("no sync after, a kernel as short as a launch") {
    CHECK(ch02::timer_contents(case_run(SyncCase::before_only, {0.012, 0.005, 0.005}, 2.0), 0.0054) ==
          "the launch call; too close to the kernel's time to tell");
  }
  SUBCASE("no readings") { CHECK(ch02::timer_contents(case_run(SyncCase::never, {}, 0.0), kernel) == "-"); }
}

TEST_CASE("host_timer_table: the kernel alone, then one row per case, every value declared once") {
  const lab::ResultTable table = ch02::host_timer_table(short_kernel_run());
  REQUIRE(table.rows().size() == 5);
  CHECK(contains(table.title(), "c = a + b (1024 floats)"));
  const auto& alone = table.row("the kernel alone (events)");
  CHECK(alone.get("median").number() == doctest::Approx(0.0054));
  CHECK(alone.get("first_ms").number() == doctest::Approx(0.0054));
  const auto& after = table.row("sync after only");
  CHECK(after.get("first_ms").number() == doctest::Approx(2.008));
  CHECK(after.get("median").number() == doctest::Approx(0.0135));
  CHECK(after.get("backlog_ms").number() == doctest::Approx(2.06));
  CHECK(after.get("first_run_held_backlog").boolean());
  CHECK(contains(after.get("contained").text(), "backlog"));
  CHECK(table.row("no sync").get("contained").text() == "the launch call; too close to the kernel's time to tell");
  const std::string text = table.render();
  CHECK(contains(text, "4 runs per case"));
  CHECK(contains(text, "10 launches of the kernel and a 2.0 ms spin kernel"));

  SUBCASE("without event samples there is no reference row") {
    ch02::HostTimerRun run = short_kernel_run();
    run.kernel_ms.clear();
    CHECK(ch02::host_timer_table(run).rows().size() == 4);
  }
}

TEST_CASE("host_timer_findings: the kernel's output after every case") {
  SUBCASE("correct after all four") {
    const auto findings = ch02::host_timer_findings(short_kernel_run());
    const std::optional<lab::Finding> f = find(findings, "correct after every case");
    REQUIRE(f);
    CHECK(f->kind == lab::Finding::Kind::correctness);
    CHECK(f->passed);
    CHECK(contains(f->text, "each of the 4 cases"));
  }
  SUBCASE("wrong after one") {
    ch02::HostTimerRun run = short_kernel_run();
    run.cases[1].result = wrong(1024, 3);
    const std::optional<lab::Finding> f = find(ch02::host_timer_findings(run), "correct after every case");
    REQUIRE(f);
    CHECK_FALSE(f->passed);
    CHECK(contains(f->text, "after 'sync before only'"));
    CHECK(contains(f->text, "3 of 1024"));
  }
  SUBCASE("nothing to check (a spin kernel writes nothing)") {
    CHECK_FALSE(find(ch02::host_timer_findings(long_kernel_run()), "correct after every case"));
  }
}

TEST_CASE("host_timer_findings: the backlog in the first 'sync after only' reading") {
  SUBCASE("its first run held the backlog") {
    const std::optional<lab::Finding> f = find(ch02::host_timer_findings(short_kernel_run()), "backlog");
    REQUIRE(f);
    CHECK(f->kind == lab::Finding::Kind::observation);
    CHECK(contains(f->text, "read 2.008 ms on its first run and 0.013 ms at the median"));
    CHECK(contains(f->text, "also held 1.994 ms of the 2.060 ms"));
  }
  SUBCASE("the GPU had done most of it first") {
    ch02::HostTimerRun run = short_kernel_run();
    run.cases[2].samples_ms = {0.5, 0.013, 0.013, 0.014};
    const std::optional<lab::Finding> f = find(ch02::host_timer_findings(run), "backlog");
    REQUIRE(f);
    CHECK(contains(f->text, "less than half of the 2.060 ms"));
  }
  SUBCASE("nothing was left in flight") {
    ch02::HostTimerRun run = short_kernel_run();
    run.cases[2].backlog_ms = 0.002;
    const std::optional<lab::Finding> f = find(ch02::host_timer_findings(run), "backlog");
    REQUIRE(f);
    CHECK(contains(f->text, "no backlog to see"));
  }
  SUBCASE("no 'sync after only' case, no sentence about it") {
    ch02::HostTimerRun run = short_kernel_run();
    run.cases.erase(run.cases.begin() + 2);
    CHECK_FALSE(find(ch02::host_timer_findings(run), "backlog"));
  }
}

TEST_CASE("long_kernel_findings: without a sync after, the timer reads under a tenth") {
  SUBCASE("it does") {
    const std::optional<lab::Finding> f = find(ch02::long_kernel_findings(long_kernel_run()), "under a tenth");
    REQUIRE(f);
    CHECK(f->kind == lab::Finding::Kind::timing);
    CHECK(f->passed);
    CHECK(contains(f->text, "no sync 0.005 ms, sync before only 0.037 ms, sync before and after 10.040 ms"));
    CHECK(contains(f->text, "2008 times"));
  }
  SUBCASE("it does not (the launch queue was full, say)") {
    const std::optional<lab::Finding> f = find(ch02::long_kernel_findings(long_kernel_run(5.0)), "under a tenth");
    REQUIRE(f);
    CHECK_FALSE(f->passed);
  }
  SUBCASE("a case missing: nothing to judge") {
    ch02::HostTimerRun run = long_kernel_run();
    run.cases.pop_back();
    CHECK_FALSE(find(ch02::long_kernel_findings(run), "under a tenth"));
  }
  SUBCASE("it also says what host_timer_findings says") {
    CHECK(find(ch02::long_kernel_findings(long_kernel_run()), "backlog"));
  }
}

// --- Section 3 --------------------------------------------------------------------

TEST_CASE("the documentation's answers keep their condition") {
  using ch02::Documented;
  using ch02::HostCall;
  using ch02::WorkSetup;
  // The copies and the launch on stream 0 run after the work exactly when stream 0 waits for its stream.
  for (WorkSetup setup : ch02::kAllSetups) {
    CAPTURE(ch02::setup_label(setup));
    const Documented ordered = ch02::stream_zero_waits_for_work(setup) ? Documented::yes : Documented::no;
    CHECK(ch02::documented_order(HostCall::kernel_launch, setup) == ordered);
    CHECK(ch02::documented_order(HostCall::memcpy_blocking, setup) == ordered);
    CHECK(ch02::documented_order(HostCall::read_one_value, setup) == Documented::yes);
    CHECK(ch02::documented_order(HostCall::cuda_free, setup) == Documented::not_applicable);
    CHECK(ch02::documented_wait(HostCall::memcpy_blocking, setup) == ordered);
    CHECK(ch02::documented_wait(HostCall::memcpy_async_pageable, setup) ==
          (ordered == Documented::yes ? Documented::may : Documented::no));
    CHECK(ch02::documented_wait(HostCall::kernel_launch, setup) == Documented::no);
    CHECK(ch02::documented_wait(HostCall::memcpy_async_pinned, setup) == Documented::no);
    CHECK(ch02::documented_wait(HostCall::cuda_malloc, setup) == Documented::unspecified);
    CHECK(ch02::documented_wait(HostCall::cuda_free, setup) == Documented::may);
    CHECK(ch02::documented_wait(HostCall::read_one_value, setup) == Documented::yes);
  }
  CHECK(ch02::stream_zero_waits_for_work(WorkSetup::blocking_stream));
  CHECK_FALSE(ch02::stream_zero_waits_for_work(WorkSetup::non_blocking_stream));
  CHECK_FALSE(ch02::stream_zero_waits_for_work(WorkSetup::per_thread_blocking_stream));
  CHECK(ch02::stream_zero_waits_for_work(WorkSetup::per_thread_legacy_stream));
  CHECK_FALSE(ch02::built_per_thread(WorkSetup::non_blocking_stream));
  CHECK(ch02::built_per_thread(WorkSetup::per_thread_legacy_stream));
  CHECK(contains(ch02::setup_title(WorkSetup::non_blocking_stream), "does not wait for non-blocking streams"));
  CHECK(contains(ch02::setup_title(WorkSetup::per_thread_legacy_stream), "still waits for the legacy"));
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
  CHECK(contains(table.title(), "(b)"));
  REQUIRE(table.rows().size() == 7);
  const auto& memcpy = table.row("cudaMemcpy to pageable");
  CHECK(memcpy.get("returns").text() == "after its copy");
  CHECK(memcpy.get("after_the_work").text() == "no");
  CHECK(memcpy.get("documented_wait").text() == "no");
  CHECK(memcpy.get("returned_after_ms").number() == doctest::Approx(0.01));
  CHECK(memcpy.get("alone_ms").number() == doctest::Approx(0.01));
  CHECK_FALSE(memcpy.get("work_done_at_return").boolean());
  CHECK_FALSE(memcpy.get("waited").boolean());
  CHECK(table.row("cudaFree 1 MiB").get("waited").boolean());
  CHECK(memcpy.get("values_read").integer() == 1024);
  CHECK(memcpy.get("values_wrong").integer() == 1024);
  CHECK(table.row("cudaFree 1 MiB").get("values_read").is_none());
  CHECK(table.row("cudaFree 1 MiB").get("after_the_work").text() == "-");
  CHECK(contains(table.render(), "20.0 ms spin kernel"));
  SUBCASE("another setup's probes are not in it") {
    CHECK(ch02::implicit_sync_table(run, ch02::WorkSetup::blocking_stream).rows().empty());
  }
}

TEST_CASE("implicit_sync_findings: everything as documented") {
  SUBCASE("(a) stream 0 waits for the blocking stream") {
    const auto findings = ch02::implicit_sync_findings(documented_run(ch02::WorkSetup::blocking_stream),
                                                       ch02::WorkSetup::blocking_stream);
    const std::optional<lab::Finding> timing = find(findings, "the calls documented to wait for the queued work did");
    REQUIRE(timing);
    CHECK(timing->kind == lab::Finding::Kind::timing);
    CHECK(timing->passed);
    CHECK(timing->text == "waited: cudaMemcpy to pageable, c[n-1] on the work's stream + sync");
    const std::optional<lab::Finding> free = find(findings, "calls not required to wait");
    REQUIRE(free);
    CHECK(free->kind == lab::Finding::Kind::observation);
    CHECK(free->text == "did not wait: kernel<<<..., 0>>> copying c, cudaMemcpyAsync to pinned, 0");
    const std::optional<lab::Finding> data = find(findings, "what runs after the work reads its result");
    REQUIRE(data);
    CHECK(data->kind == lab::Finding::Kind::correctness);
    CHECK(data->passed);
    CHECK(contains(data->text, "5 calls"));
    CHECK_FALSE(find(findings, "not ordered"));  // in (a) everything is ordered
    const std::optional<lab::Finding> open = find(findings, "leaves open");
    REQUIRE(open);
    CHECK(open->kind == lab::Finding::Kind::observation);
    CHECK(contains(open->text, "cudaMemcpyAsync to pageable, 0 (may wait for its copy) waited for it"));
    CHECK(contains(open->text, "cudaMalloc 1 MiB (not said) did not wait for it"));
    CHECK(contains(open->text, "cudaFree 1 MiB (may synchronise) waited for it"));
  }
  SUBCASE("(b) stream 0 does not wait for the non-blocking stream: the copies read stale values") {
    const auto findings = ch02::implicit_sync_findings(documented_run(ch02::WorkSetup::non_blocking_stream),
                                                       ch02::WorkSetup::non_blocking_stream);
    const std::optional<lab::Finding> timing = find(findings, "documented to wait");
    REQUIRE(timing);
    CHECK(timing->passed);
    CHECK(timing->text == "waited: c[n-1] on the work's stream + sync");
    const std::optional<lab::Finding> free = find(findings, "not required to wait");
    REQUIRE(free);
    CHECK(contains(free->text, "did not wait: kernel<<<..., 0>>> copying c, cudaMemcpyAsync to pinned, 0, "
                               "cudaMemcpyAsync to pageable, 0, cudaMemcpy to pageable"));
    const std::optional<lab::Finding> data = find(findings, "reads its result");
    REQUIRE(data);
    CHECK(data->passed);
    CHECK(contains(data->text, "1 call, every value"));
    const std::optional<lab::Finding> stale = find(findings, "not ordered");
    REQUIRE(stale);
    CHECK(stale->kind == lab::Finding::Kind::observation);
    CHECK(contains(stale->text, "read c before the kernel had written it"));
    CHECK(contains(stale->text, "cudaMemcpy to pageable"));
    CHECK(lacks(stale->text, "happened to finish first"));
  }
}

TEST_CASE("implicit_sync_findings: what the documentation does not promise, and failures") {
  using ch02::HostCall;
  using ch02::WorkSetup;
  SUBCASE("a call documented to wait did not") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::blocking_stream);
    probe_of(run, HostCall::memcpy_blocking).work_done_at_return = false;
    const std::optional<lab::Finding> f =
        find(ch02::implicit_sync_findings(run, WorkSetup::blocking_stream), "documented to wait");
    REQUIRE(f);
    CHECK_FALSE(f->passed);
    CHECK(contains(f->text, "did not wait: cudaMemcpy to pageable; waited: c[n-1]"));
  }
  SUBCASE("a call not required to wait did: reported, allowed, not failed") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::per_thread_blocking_stream);
    probe_of(run, HostCall::memcpy_blocking).work_done_at_return = true;
    probe_of(run, HostCall::memcpy_blocking).returned_after_ms = 20.1;
    const auto findings = ch02::implicit_sync_findings(run, WorkSetup::per_thread_blocking_stream);
    const std::optional<lab::Finding> check = find(findings, "documented to wait");
    REQUIRE(check);
    CHECK(check->passed);
    const std::optional<lab::Finding> f = find(findings, "not required to wait");
    REQUIRE(f);
    CHECK(f->kind == lab::Finding::Kind::observation);
    CHECK(contains(f->text, "waited all the same: cudaMemcpy to pageable (allowed: any call may block"));
  }
  SUBCASE("an ordered call read wrong values") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::per_thread_legacy_stream);
    probe_of(run, HostCall::memcpy_async_pinned).data = wrong(1024, 7);
    const std::optional<lab::Finding> f =
        find(ch02::implicit_sync_findings(run, WorkSetup::per_thread_legacy_stream), "reads its result");
    REQUIRE(f);
    CHECK_FALSE(f->passed);
    CHECK(contains(f->text, "cudaMemcpyAsync to pinned, 0: 7 of 1024"));
  }
  SUBCASE("unordered calls that happened to read the result") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::non_blocking_stream);
    for (ch02::CallProbe& p : run.probes) {
      if (p.data.count > 0) p.data = correct(p.data.count);
    }
    const std::optional<lab::Finding> f = find(ch02::implicit_sync_findings(run, WorkSetup::non_blocking_stream), "not ordered");
    REQUIRE(f);
    CHECK(lacks(f->text, "before the kernel had written it"));
    CHECK(contains(f->text, "the work happened to finish first, though nothing orders them after it"));
  }
  SUBCASE("some unordered calls read stale values, some did not") {
    ch02::ImplicitSyncRun run = documented_run(WorkSetup::non_blocking_stream);
    probe_of(run, HostCall::kernel_launch).data = correct(1024);
    const std::optional<lab::Finding> f = find(ch02::implicit_sync_findings(run, WorkSetup::non_blocking_stream), "not ordered");
    REQUIRE(f);
    CHECK(contains(f->text, "cudaMemcpyAsync to pinned, 0, cudaMemcpyAsync to pageable, 0, cudaMemcpy to pageable read c "
                            "before the kernel had written it"));
    CHECK(contains(f->text, "; kernel<<<..., 0>>> copying c read only correct values"));
  }
  SUBCASE("nothing documented waited, nothing documented ran on") {
    ch02::ImplicitSyncRun run;
    run.probes = {probe(HostCall::cuda_malloc, WorkSetup::blocking_stream, false)};
    const auto findings = ch02::implicit_sync_findings(run, WorkSetup::blocking_stream);
    CHECK_FALSE(find(findings, "documented to wait"));
    CHECK_FALSE(find(findings, "not required to wait"));
    CHECK_FALSE(find(findings, "reads its result"));
    CHECK(find(findings, "leaves open"));
  }
  SUBCASE("only calls not required to wait, none of which waited") {
    ch02::ImplicitSyncRun run;
    run.probes = {probe(HostCall::kernel_launch, WorkSetup::blocking_stream, false, correct(8))};
    const auto findings = ch02::implicit_sync_findings(run, WorkSetup::blocking_stream);
    CHECK_FALSE(find(findings, "documented to wait"));
    const std::optional<lab::Finding> f = find(findings, "not required to wait");
    REQUIRE(f);
    CHECK(f->text == "did not wait: kernel<<<..., 0>>> copying c");
  }
  SUBCASE("a call documented to wait, and none that did") {
    ch02::ImplicitSyncRun run;
    run.probes = {probe(HostCall::read_one_value, WorkSetup::blocking_stream, false, correct(1))};
    const std::optional<lab::Finding> f = find(ch02::implicit_sync_findings(run, WorkSetup::blocking_stream), "documented to wait");
    REQUIRE(f);
    CHECK_FALSE(f->passed);
    CHECK(f->text == "did not wait: c[n-1] on the work's stream + sync; waited: none");
  }
  SUBCASE("no probes of that setup: no findings") {
    CHECK(ch02::implicit_sync_findings(documented_run(WorkSetup::blocking_stream), WorkSetup::non_blocking_stream)
              .empty());
  }
}

// --- Section 4 --------------------------------------------------------------------

TEST_CASE("placement_table: the two pieces alone, then the two placements") {
  const lab::ResultTable table = ch02::placement_table(placement(11.1, 20.5));
  REQUIRE(table.rows().size() == 4);
  CHECK(table.row("the GPU work alone (events)").get("time_ms").number() == doctest::Approx(10.0));
  CHECK(table.row("the GPU work alone (events)").get("values_wrong").is_none());
  CHECK(table.row("queue GPU work, CPU work, then read the result").get("time_ms").number() ==
        doctest::Approx(11.1));
  CHECK(table.row("queue GPU work, read the result, then CPU work").get("values_wrong").integer() == 0);
}

TEST_CASE("placement_findings") {
  SUBCASE("CPU work first overlaps") {
    const auto findings = ch02::placement_findings(placement(11.1, 20.5));
    const std::optional<lab::Finding> timing = find(findings, "overlaps");
    REQUIRE(timing);
    CHECK(timing->kind == lab::Finding::Kind::timing);
    CHECK(timing->passed);
    CHECK(contains(timing->text, "11.100 ms against 20.500 ms: 9.400 ms saved"));
    const std::optional<lab::Finding> compare = find(findings, "against the work it holds");
    REQUIRE(compare);
    CHECK(contains(compare->text, "1.100 ms more than the longer of the two alone (10.000 ms)"));
    CHECK(contains(compare->text, "0.500 ms more than their sum (20.000 ms)"));
    CHECK(find(findings, "before the read")->passed);
    CHECK(find(findings, "after the read")->passed);
  }
  SUBCASE("it did not (and beat the sum)") {
    const auto findings = ch02::placement_findings(placement(20.5, 19.9));
    const std::optional<lab::Finding> timing = find(findings, "overlaps");
    REQUIRE(timing);
    CHECK_FALSE(timing->passed);
    CHECK(contains(timing->text, "0.600 ms lost"));
    CHECK(contains(find(findings, "against the work it holds")->text, "0.100 ms less than their sum"));
  }
  SUBCASE("a wrong result") {
    ch02::Placement p = placement(11.1, 20.5);
    p.read_then_work = wrong(1024, 2);
    const std::optional<lab::Finding> f = find(ch02::placement_findings(p), "after the read");
    REQUIRE(f);
    CHECK(f->kind == lab::Finding::Kind::correctness);
    CHECK_FALSE(f->passed);
  }
}
