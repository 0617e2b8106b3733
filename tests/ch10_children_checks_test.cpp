// Chapter 10's sections 5 and 6 on hand-made data: every branch of every
// function in chapters/10_dependent_launch/checks.hpp (its id,
// verdict and numbers), the two children's lines read back as written, and the
// chapter's options (defaults, ranges, memory need). No GPU.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "../chapters/10_dependent_launch/options.hpp"  // every chapter's file is named options.hpp: by path
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "support/options_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

constexpr char kRefused[] = "cudaErrorStreamCaptureUnsupported";
constexpr char kInvalidated[] = "cudaErrorStreamCaptureInvalidated";

// A child's report: refused calls invalidate the capture (NULL graph), the context survives.
ch10::CaptureProbe probe(const std::string& mode, const std::string& call, bool refused) {
  ch10::CaptureProbe p;
  p.mode = mode;
  p.call = call;
  p.measured = true;
  p.returned = refused ? kRefused : "cudaSuccess";
  p.status_after = refused ? "invalidated" : "active";
  p.end_capture = refused ? kInvalidated : "cudaSuccess";
  p.graph_null = refused;
  p.context = "cudaSuccess";
  return p;
}

// Every (mode, call) as the documentation says; of the rows it does not rule on, the non-blocking
// capture's cudaMemcpy is allowed in every mode; the external record outside capture is refused.
ch10::CaptureRun documented_run() {
  ch10::CaptureRun run;
  for (const std::string& call : ch10::capture_call_names()) {
    for (const std::string& mode : ch10::capture_mode_names()) {
      const ch10::Documented d = ch10::documented(mode, call);
      const bool refused = d == ch10::Documented::prohibited;
      run.probes.push_back(probe(mode, call, refused));
    }
  }
  ch10::CaptureProbe outside = probe("none", ch10::kOutsideCaptureCall, true);
  outside.returned = "cudaErrorInvalidValue";
  outside.status_after = "none";
  outside.end_capture = "-";
  outside.graph_null = false;
  run.probes.push_back(outside);
  return run;
}

ch10::CaptureProbe& row(ch10::CaptureRun& run, const std::string& mode, const std::string& call) {
  for (ch10::CaptureProbe& p : run.probes)
    if (p.mode == mode && p.call == call) return p;
  FAIL("no probe " << call << " / " << mode);
  static ch10::CaptureProbe none;
  return none;
}

ch10::QueueScaleProbe depth(const std::string& value, std::int64_t d) {
  ch10::QueueScaleProbe p;
  p.value = value;
  p.seen = value;
  p.measured = true;
  p.launches = 16384;
  p.depth = d;
  p.median_call_us = 2.0;
  p.blocked_call_ms = 100.4;
  return p;
}

// The six values with these depths, in queue_scale_values()'s order (unset, 0.25x, 0.5x, 2x, 4x, 3x).
ch10::QueueScaleRun queue_run(std::vector<std::int64_t> depths) {
  ch10::QueueScaleRun run;
  for (std::size_t i = 0; i < depths.size(); ++i) run.probes.push_back(depth(ch10::queue_scale_values()[i], depths[i]));
  return run;
}

ch10::Options parsed(std::vector<const char*> args) {
  return lab_test::parsed<ch10::Options>(ch10::add_options, std::move(args));
}

}  // namespace

// --- options ----------------------------------------------------------------------

TEST_CASE("options: defaults, ranges and the memory need") {
  const ch10::Options defaults = parsed({});
  CHECK(defaults.n == 65536);
  CHECK(defaults.kernels == 100);
  CHECK(defaults.preamble_us == doctest::Approx(0.5));
  CHECK(defaults.reps == 20);
  CHECK(defaults.jacobi_n == 4096);
  CHECK(defaults.tolerance == doctest::Approx(1e-5));
  CHECK(defaults.max_iterations == 10000);
  CHECK(defaults.queue_launches == 16384);
  CHECK(defaults.seed == 1);
  const ch10::Options smoke =
      parsed({"--n", "4096", "--kernels", "10", "--reps", "3", "--jacobi-n", "256", "--queue-launches", "256"});
  CHECK(smoke.n == 4096);
  CHECK(smoke.queue_launches == 256);
  CHECK(parsed({"--n", "16Mi"}).n == 16 << 20);
  for (const std::vector<const char*>& bad : std::vector<std::vector<const char*>>{{"--n", "0"},
                                                                                   {"--n", "32Mi"},
                                                                                   {"--kernels", "1"},
                                                                                   {"--reps", "0"},
                                                                                   {"--preamble-us", "-1"},
                                                                                   {"--tolerance", "0"},
                                                                                   {"--jacobi-n", "1"},
                                                                                   {"--max-iterations", "0"},
                                                                                   {"--queue-launches", "8"},
                                                                                   {"--queue-launches", "128Ki"}})
    CHECK_THROWS_AS(parsed(bad), lab::UsageError);
  CHECK(lab_test::contains(lab_test::usage_error<ch10::Options>(ch10::add_options, {"--queue-launches", "8"}),
                           "--queue-launches: must be in"));

  const lab::MemoryNeed chain = ch10::memory_need(defaults);  // 3 chain buffers of 64Ki floats
  CHECK(chain.device_bytes == doctest::Approx(3.0 * 4 * 65536));
  CHECK(chain.host_bytes == doctest::Approx(2.0 * 3 * 4 * 65536));
  const lab::MemoryNeed jacobi = ch10::memory_need(parsed({"--n", "16", "--jacobi-n", "1Mi"}));  // the solve's 3
  CHECK(jacobi.device_bytes == doctest::Approx(3.0 * 4 * (1 << 20)));
  CHECK(lab_test::contains(jacobi.what, "--jacobi-n 1Mi"));
}

// --- the children's lines ---------------------------------------------------------

TEST_CASE("the capture child's line reads back as written") {
  const ch10::CaptureProbe written = probe("thread_local", "malloc_other_thread", true);
  const std::string line = ch10::capture_line(written);
  CHECK(line.rfind("ch10_capture_child {", 0) == 0);  // the child's name, then one JSON object
  ch10::CaptureProbe read;
  read.why_not = "stale";
  REQUIRE(ch10::read_capture_line("some warning\n" + line + "\n", read));
  CHECK(read.measured);
  CHECK(read.why_not.empty());
  CHECK(read.mode == "thread_local");
  CHECK(read.call == "malloc_other_thread");
  CHECK(read.returned == kRefused);
  CHECK(read.status_after == "invalidated");
  CHECK(read.end_capture == kInvalidated);
  CHECK(read.graph_null);
  CHECK(read.context == "cudaSuccess");

  ch10::CaptureProbe outside = probe("none", ch10::kOutsideCaptureCall, false);
  outside.end_capture = "-";
  ch10::CaptureProbe back;
  REQUIRE(ch10::read_capture_line(ch10::capture_line(outside), back));
  CHECK(back.end_capture == "-");
  CHECK_FALSE(back.graph_null);

  ch10::CaptureProbe untouched;
  untouched.why_not = "kept";
  CHECK_FALSE(ch10::read_capture_line("ch10_capture_child {\"mode\":\"global\"}\n", untouched));  // fields missing
  CHECK_FALSE(ch10::read_capture_line("ch10_capture_child {\"mode\":\n", untouched));             // not JSON
  CHECK_FALSE(ch10::read_capture_line("other_child " + line.substr(line.find('{')) + "\n", untouched));
  CHECK_FALSE(untouched.measured);
  CHECK(untouched.why_not == "kept");
}

TEST_CASE("the queue child's line reads back as written, unset included") {
  ch10::QueueScaleProbe written = depth("2x", 2045);
  written.median_call_us = 2.125;
  written.blocked_call_ms = 100.412;
  ch10::QueueScaleProbe read;
  read.value = "2x";  // set by the parent, kept
  REQUIRE(ch10::read_queue_line(ch10::queue_line(written), read));
  CHECK(read.measured);
  CHECK(read.value == "2x");
  CHECK(read.seen == "2x");
  CHECK(read.launches == 16384);
  CHECK(read.depth == 2045);
  CHECK(read.median_call_us == doctest::Approx(2.125));
  CHECK(read.blocked_call_ms == doctest::Approx(100.412));
  CHECK_FALSE(read.holding_timed_out);

  ch10::QueueScaleProbe unset = depth("", -1);
  unset.holding_timed_out = true;
  ch10::QueueScaleProbe back;
  back.seen = "stale";
  REQUIRE(ch10::read_queue_line(ch10::queue_line(unset), back));
  CHECK(back.seen.empty());
  CHECK(back.depth == -1);
  CHECK(back.holding_timed_out);

  ch10::QueueScaleProbe untouched;
  CHECK_FALSE(ch10::read_queue_line("ch10_queue_child {\"seen\":\"2x\",\"launches\":16384}\n", untouched));
  CHECK_FALSE(untouched.measured);
}

// --- 5. What stream capture forbids -------------------------------------------------

TEST_CASE("what the documentation says of each call in each mode") {
  using ch10::Documented;
  for (const std::string& mode : ch10::capture_mode_names()) {
    CHECK(ch10::documented(mode, "stream_synchronize") == Documented::prohibited);
    CHECK(ch10::documented(mode, "stream_query") == Documented::prohibited);
    CHECK(ch10::documented(mode, "event_query_captured") == Documented::prohibited);
    CHECK(ch10::documented(mode, "memcpy_legacy") == Documented::prohibited);
    CHECK(ch10::documented(mode, "device_synchronize") == Documented::prohibited);  // a broader handle
  }
  CHECK(ch10::documented("global", "malloc") == Documented::prohibited);
  CHECK(ch10::documented("thread_local", "malloc") == Documented::prohibited);
  CHECK(ch10::documented("relaxed", "malloc") == Documented::allowed);
  CHECK(ch10::documented("global", "malloc_other_thread") == Documented::prohibited);
  CHECK(ch10::documented("thread_local", "malloc_other_thread") == Documented::allowed);
  CHECK(ch10::documented("relaxed", "malloc_other_thread") == Documented::allowed);
  for (const std::string& mode : ch10::capture_mode_names())
    CHECK(ch10::documented(mode, "malloc_thread_relaxed") == Documented::allowed);
  CHECK(ch10::documented("global", "memcpy_legacy_nonblocking_capture") == Documented::not_stated);
  CHECK(ch10::documented("relaxed", "memcpy_legacy_nonblocking_capture") == Documented::allowed);
  CHECK(ch10::documented("none", ch10::kOutsideCaptureCall) == Documented::prohibited);  // cuda.h says so
  CHECK(ch10::capture_call_names().size() * ch10::capture_mode_names().size() + 1 == 28);
}

TEST_CASE("capture as documented: every check's passing branch, and the table") {
  const ch10::CaptureRun run = documented_run();
  const auto findings = ch10::capture_checks(run);
  REQUIRE(findings.size() == 3);
  CHECK(by_id(findings, "capture_as_documented").id == "capture_as_documented.all");
  CHECK(by_id(findings, "capture_as_documented").passed);
  CHECK(by_id(findings, "capture_as_documented").kind == lab::Finding::Kind::correctness);
  CHECK(value(findings, "capture_as_documented", "rows") == 28);
  CHECK(value(findings, "capture_as_documented", "rows_measured") == 28);
  CHECK(value(findings, "capture_as_documented", "rows_stated") == 26);  // device_synchronize and outside included
  CHECK(value(findings, "capture_as_documented", "rows_matching") == 26);
  CHECK(by_id(findings, "context_survives").id == "context_survives.yes");
  CHECK(by_id(findings, "context_survives").passed);
  CHECK(value(findings, "context_survives", "rows_usable") == 28);
  CHECK(by_id(findings, "invalidation").id == "invalidation.every_refusal");
  CHECK(by_id(findings, "invalidation").kind == lab::Finding::Kind::correctness);  // the guide's Invalidation
  CHECK(value(findings, "invalidation", "rows_refused") == 18);  // the outside-capture row is not a capture's
  CHECK(value(findings, "invalidation", "rows_invalidated") == 18);

  const lab::ResultTable table = ch10::capture_calls_table(run);
  CHECK(table.id() == "capture_calls");
  CHECK(table.rows().size() == 28);
  CHECK(table.row("malloc / global").get("documented").text() == "prohibited");
  CHECK(table.row("malloc / relaxed").get("documented").text() == "allowed");
  CHECK(table.row("device_synchronize / global").get("documented").text() == "prohibited");
  CHECK(table.row("memcpy_legacy_nonblocking_capture / global").get("documented").text() == "not stated");
  CHECK(table.row(std::string(ch10::kOutsideCaptureCall) + " / none").get("documented").text() == "prohibited");
  CHECK(table.row("malloc / global").get("returned").text() == kRefused);
  CHECK(table.row("malloc / global").get("graph").text() == "NULL");
  CHECK(table.row("malloc / relaxed").get("graph").text() == "a graph");
  CHECK(table.row(std::string(ch10::kOutsideCaptureCall) + " / none").get("graph").text() == "-");
}

TEST_CASE("capture differs from the documentation: the failing branches") {
  ch10::CaptureRun run = documented_run();
  row(run, "relaxed", "malloc") = probe("relaxed", "malloc", true);  // refused where relaxed allows it
  ch10::CaptureProbe& kept = row(run, "global", "stream_query");     // refused, but the capture survived
  kept.end_capture = "cudaSuccess";
  kept.graph_null = false;
  row(run, "thread_local", "stream_synchronize").context = "cudaErrorIllegalState";
  ch10::CaptureProbe& missing = row(run, "global", "memcpy_legacy");
  missing = ch10::CaptureProbe{};
  missing.mode = "global";
  missing.call = "memcpy_legacy";
  missing.why_not = "ch10_capture_child exited with code 1";
  row(run, "none", ch10::kOutsideCaptureCall).returned = "cudaSuccess";  // cuda.h: invalid outside capture

  const auto findings = ch10::capture_checks(run);
  CHECK(by_id(findings, "capture_as_documented").id == "capture_as_documented.differs");
  CHECK_FALSE(by_id(findings, "capture_as_documented").passed);
  CHECK(value(findings, "capture_as_documented", "rows_measured") == 27);
  CHECK(value(findings, "capture_as_documented", "rows_matching") == 23);  // relaxed malloc, missing, outside
  CHECK(lab_test::contains(by_id(findings, "capture_as_documented").text, "malloc / relaxed"));
  CHECK(lab_test::contains(by_id(findings, "capture_as_documented").text, ch10::kOutsideCaptureCall));
  CHECK(by_id(findings, "context_survives").id == "context_survives.no");
  CHECK_FALSE(by_id(findings, "context_survives").passed);
  CHECK(value(findings, "context_survives", "rows_usable") == 26);
  CHECK(by_id(findings, "invalidation").id == "invalidation.not_every_refusal");
  CHECK_FALSE(by_id(findings, "invalidation").passed);
  CHECK(value(findings, "invalidation", "rows_invalidated") == value(findings, "invalidation", "rows_refused") - 1);
  CHECK(lab_test::contains(by_id(findings, "invalidation").text, "stream_query / global"));
  CHECK(ch10::capture_calls_table(run).row("memcpy_legacy / global").get("returned").text() == "not measured");
}

TEST_CASE("capture: a prohibited call refused for another reason is not as documented") {
  ch10::CaptureRun run = documented_run();
  ch10::CaptureProbe& oom = row(run, "global", "malloc");  // an error, but not capture's: the capture still active
  oom.returned = "cudaErrorMemoryAllocation";
  oom.status_after = "active";
  oom.end_capture = "cudaSuccess";
  oom.graph_null = false;
  const auto findings = ch10::capture_checks(run);
  CHECK_FALSE(by_id(findings, "capture_as_documented").passed);
  CHECK(lab_test::contains(by_id(findings, "capture_as_documented").text, "cudaErrorMemoryAllocation"));
  CHECK(by_id(findings, "invalidation").passed);  // not a capture's refusal: not counted there
  CHECK(value(findings, "invalidation", "rows_refused") == 17);
  oom.status_after = "invalidated";  // invalidated after the call: the capture refused it
  CHECK(by_id(ch10::capture_checks(run), "capture_as_documented").passed);
}

TEST_CASE("capture skipped, or no child reported") {
  ch10::CaptureRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "instrumented";
  auto findings = ch10::capture_checks(skipped);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "capture_calls.skipped");
  CHECK_FALSE(has_id(findings, "capture_as_documented"));
  CHECK(ch10::capture_calls_table(skipped).rows().empty());

  ch10::CaptureRun none;
  none.probes.push_back(ch10::CaptureProbe{});
  none.probes[0].why_not = "no such file";
  findings = ch10::capture_checks(none);
  CHECK(by_id(findings, "capture_as_documented").id == "capture_as_documented.differs");
  CHECK_FALSE(by_id(findings, "capture_as_documented").passed);  // no child reported: a failed check
  CHECK(lab_test::contains(by_id(findings, "capture_as_documented").text, "no such file"));
}

// --- 6. The launch queue's depth ----------------------------------------------------

TEST_CASE("the documented factors") {
  CHECK(ch10::documented_ratio("") == 1.0);
  CHECK(ch10::documented_ratio("0.25x") == 0.25);
  CHECK(ch10::documented_ratio("0.5x") == 0.5);
  CHECK(ch10::documented_ratio("2x") == 2.0);
  CHECK(ch10::documented_ratio("4x") == 4.0);
  CHECK(ch10::documented_ratio("3x") == 1.0);  // any other value is read as 1x
  CHECK(ch10::queue_scale_values().front().empty());
  CHECK(ch10::queue_scale_values().size() == 6);
}

TEST_CASE("queue scale: as documented per value, in the table") {
  const ch10::QueueScaleRun run = queue_run({1021, 255, 510, 2042, 4084, 1021});
  CHECK(ch10::queue_scale_checks(run).empty());  // the table says it
  const lab::ResultTable table = ch10::queue_scale_table(run);
  CHECK(table.id() == "queue_scale");
  CHECK(table.rows().size() == 6);
  CHECK(lab_test::cell(table, "unset", "depth") == 1021);
  CHECK(table.row("unset").get("seen").text() == "unset");
  CHECK(lab_test::cell(table, "2x", "ratio_to_unset") == doctest::Approx(2.0));
  CHECK(lab_test::cell(table, "3x", "documented_ratio") == 1.0);
  for (const char* value : {"unset", "0.25x", "0.5x", "2x", "4x", "3x"})
    CHECK(table.row(value).get("as_documented").boolean());

  // Ignored: every value gives the unset depth; only 3x (read as 1x) is as documented.
  const lab::ResultTable ignored = ch10::queue_scale_table(queue_run({1021, 1021, 1020, 1021, 1022, 1021}));
  CHECK_FALSE(ignored.row("0.25x").get("as_documented").boolean());
  CHECK_FALSE(ignored.row("4x").get("as_documented").boolean());
  CHECK(ignored.row("3x").get("as_documented").boolean());
  // 3x read as 2x: no, the others unchanged; within 10 % is yes (0.5x at 0.46x).
  const lab::ResultTable three = ch10::queue_scale_table(queue_run({1000, 250, 460, 2000, 4000, 2000}));
  CHECK_FALSE(three.row("3x").get("as_documented").boolean());
  CHECK(three.row("0.5x").get("as_documented").boolean());
}

TEST_CASE("queue scale: queues that never filled, no unset depth, a child that failed, skipped") {
  ch10::QueueScaleRun four_unfilled = queue_run({1021, 255, 510, 2042, -1, 1021});
  four_unfilled.probes[4].launches = 2048;  // --queue-launches below 4x's depth: the 4x queue never filled
  const lab::ResultTable t = ch10::queue_scale_table(four_unfilled);
  CHECK(t.row("4x").get("depth").text() == "> 2Ki");
  CHECK(t.row("4x").get("as_documented").is_none());
  CHECK(t.row("2x").get("as_documented").boolean());

  const lab::ResultTable none = ch10::queue_scale_table(queue_run({-1, 255, 510, 2042, 4084, 1021}));  // unset unfilled
  CHECK(none.row("2x").get("ratio_to_unset").is_none());
  CHECK(none.row("2x").get("as_documented").is_none());

  ch10::QueueScaleRun failed = queue_run({1021, 255});
  failed.probes[1] = ch10::QueueScaleProbe{};
  failed.probes[1].value = "0.25x";
  failed.probes[1].why_not = "timed out";
  CHECK(ch10::queue_scale_table(failed).row("0.25x").get("seen").text() == "not measured");

  ch10::QueueScaleRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "instrumented";
  const auto findings = ch10::queue_scale_checks(skipped);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "queue_scale.skipped");
}
