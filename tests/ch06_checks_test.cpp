// Chapter 06's tables and checks on hand-made data: every table of
// chapters/06_pinned_memory/tables.hpp and every branch of checks.hpp. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

std::vector<double> around(double value) { return {value * 0.99, value, value * 1.01}; }

ch06::CopyCheck intact(std::size_t bytes) {
  ch06::CopyCheck check;
  check.bytes = bytes;
  check.intact = true;
  return check;
}

ch06::CopyCheck broken(std::size_t bytes) {
  ch06::CopyCheck check;
  check.bytes = bytes;
  check.first_difference = 17;
  return check;
}

// ms to move @p bytes at @p gbps, plus @p fixed_us.
double ms_at(std::size_t bytes, double gbps, double fixed_us = 0) {
  return static_cast<double>(bytes) / (gbps * 1e6) + fixed_us * 1e-3;
}

// One size as on an H100: pageable 8 / 10 GB/s, pinned 55 GB/s with a 2 us cost
// per copy behind a blocked stream and 8 us more isolated; both directions
// together at @p h2d_with / @p d2h_with GB/s.
ch06::SizeSamples size_row(std::size_t bytes, double h2d_with = 45, double d2h_with = 45) {
  ch06::SizeSamples s;
  s.bytes = bytes;
  s.pageable_h2d_ms = around(ms_at(bytes, 8, 10));
  s.pageable_d2h_ms = around(ms_at(bytes, 10, 10));
  s.pinned_h2d_ms = around(ms_at(bytes, 55, 2));
  s.pinned_d2h_ms = around(ms_at(bytes, 55, 2));
  s.pinned_h2d_isolated_ms = around(ms_at(bytes, 55, 10));
  s.pinned_d2h_isolated_ms = around(ms_at(bytes, 55, 10));
  s.both_h2d_ms = around(ms_at(bytes, h2d_with, 2));
  s.both_d2h_ms = around(ms_at(bytes, d2h_with, 2));
  s.pageable_check = intact(bytes);
  s.pinned_check = intact(bytes);
  return s;
}

ch06::SweepRun sweep(double h2d_with = 45, double d2h_with = 45) {
  ch06::SweepRun run;
  for (std::size_t bytes = 4 * kKiB; bytes <= 256 * kMiB; bytes *= 4)
    run.sizes.push_back(size_row(bytes, h2d_with, d2h_with));
  run.experiment_bytes = 256 * kMiB;
  run.pcie_generation = run.pcie_generation_now = 5;
  run.pcie_width = run.pcie_width_now = 16;
  run.link_gbps = 63.0;
  return run;
}

}  // namespace

// --- helpers ------------------------------------------------------------------------

TEST_CASE("sizes read as KiB, MiB and GiB") {
  CHECK(ch06::size_text(4096) == "4KiB");
  CHECK(ch06::size_text(256 * kMiB) == "256MiB");
  CHECK(ch06::size_text(1024 * kMiB) == "1GiB");
  CHECK(ch06::size_text(1000) == "1000B");
  CHECK(ch06::size_text(3 * kMiB + 5) == std::to_string(3 * kMiB + 5) + "B");
  CHECK(std::string(ch06::host_kind_name(ch06::HostKind::write_combined)) == "write-combined");
  CHECK(std::string(ch06::host_kind_name(ch06::HostKind::mapped)) == "mapped");
}

TEST_CASE("a copy check names the first differing byte") {
  CHECK(intact(4096).detail() == "4096 bytes intact");
  CHECK(broken(4096).detail() == "byte 17 differs (of 4096)");
}

// --- 1. the sweep ----------------------------------------------------------------------

TEST_CASE("sweep tables hold each size's bandwidth") {
  const ch06::SweepRun run = sweep();
  const lab::ResultTable table = ch06::sweep_table(run);
  CHECK(table.id() == "sweep");
  CHECK(table.rows().size() == run.sizes.size());
  CHECK(lab_test::cell(table, "256MiB", "pageable_h2d_gbps") == doctest::Approx(8.0).epsilon(0.01));
  CHECK(lab_test::cell(table, "256MiB", "pinned_d2h_isolated_gbps") == doctest::Approx(55.0).epsilon(0.01));
  CHECK(table.row("256MiB").get("pinned_h2d_ms").numbers().size() == 3);
  CHECK(table.row("256MiB").get("data").text() == "intact");
  const lab::ResultTable both = ch06::both_directions_table(run);
  CHECK(both.id() == "both_directions");
  CHECK(lab_test::cell(both, "256MiB", "h2d_together_gbps") == doctest::Approx(45.0).epsilon(0.01));
  CHECK(lab_test::cell(both, "256MiB", "total_vs_faster_alone") == doctest::Approx(90.0 / 55.0).epsilon(0.01));
}

TEST_CASE("sweep: the expected run") {
  const std::vector<lab::Finding> f = ch06::sweep_checks(sweep());
  CHECK(by_id(f, "sweep_intact").passed);
  REQUIRE(f.size() == 4);
  CHECK(by_id(f, "pinned_faster").passed);
  CHECK(by_id(f, "pinned_faster").kind == lab::Finding::Kind::timing);
  CHECK(value(f, "pinned_faster", "h2d_ratio") == doctest::Approx(55.0 / 8.0).epsilon(0.01));
  CHECK(by_id(f, "benchmark").id == "benchmark.link_known");
  CHECK(value(f, "benchmark", "link_gbps") == doctest::Approx(63.0));
  CHECK(value(f, "benchmark", "gbps") == doctest::Approx(55.0).epsilon(0.01));
  CHECK(by_id(f, "both_directions").passed);  // 90 GB/s against 55 alone
  CHECK(value(f, "both_directions", "h2d_change_percent") == doctest::Approx(-18.2).epsilon(0.01));
}

TEST_CASE("sweep: a wrong copy, pageable as fast as pinned, no link, directions that do not overlap") {
  ch06::SweepRun run = sweep(55, 55);
  run.sizes[2].pinned_check = broken(run.sizes[2].bytes);
  run.sizes.back().pageable_h2d_ms = run.sizes.back().pinned_h2d_ms;
  run.link_gbps = 0;
  std::vector<lab::Finding> f = ch06::sweep_checks(run);
  CHECK_FALSE(by_id(f, "sweep_intact").passed);
  CHECK_FALSE(by_id(f, "pinned_faster").passed);
  CHECK(value(f, "pinned_faster", "h2d_ratio") == doctest::Approx(1.0));
  CHECK(by_id(f, "benchmark").id == "benchmark.link_unknown");
  CHECK(by_id(f, "both_directions").passed);
  run.link_gbps = 31.5;  // a link slower than the copies (55 GB/s): they did not cross only it
  CHECK(by_id(ch06::sweep_checks(run), "benchmark").id == "benchmark.above_link");
  CHECK(value(f, "both_directions", "d2h_change_percent") == doctest::Approx(0.0).epsilon(0.01));

  f = ch06::sweep_checks(sweep(30, 30));  // 60 GB/s together against 55 alone: under 1.2x
  CHECK_FALSE(by_id(f, "both_directions").passed);
  CHECK(value(f, "both_directions", "total_gbps") == doctest::Approx(60.0).epsilon(0.01));

  run = sweep(30, 30);  // the same numbers on a device with one copy engine: observed, not judged
  run.copy_engines = 1;
  f = ch06::sweep_checks(run);
  CHECK(by_id(f, "both_directions").id == "both_directions.one_copy_engine");
  CHECK(by_id(f, "both_directions").passed);
  CHECK(by_id(f, "both_directions").kind == lab::Finding::Kind::observation);
  run.copy_engines = 2;
  CHECK_FALSE(by_id(ch06::sweep_checks(run), "both_directions").passed);
}

TEST_CASE("sweep: pageable memory through the host's page tables is observed; no blocked stream, and why") {
  ch06::SweepRun run = sweep();
  run.sizes.back().pageable_h2d_ms = run.sizes.back().pinned_h2d_ms;  // as fast as pinned: the check would fail
  run.pageable_uses_host_page_tables = true;
  std::vector<lab::Finding> f = ch06::sweep_checks(run);
  CHECK(by_id(f, "pinned_faster").id == "pinned_faster.host_page_tables");
  CHECK(by_id(f, "pinned_faster").kind == lab::Finding::Kind::observation);
  CHECK(value(f, "pinned_faster", "h2d_ratio") == doctest::Approx(1.0));

  run = sweep();
  run.blocked = false;
  run.why_not_blocked = "the holding kernel timed out";
  CHECK(lab_test::contains(ch06::both_directions_table(run).title(), "isolated (the holding kernel timed out)"));
  CHECK(lab_test::contains(ch06::sweep_table(run).render(), "pinned': isolated (the holding kernel timed out)"));
}

TEST_CASE("sweep: an empty run fails its check and says nothing else") {
  const std::vector<lab::Finding> f = ch06::sweep_checks(ch06::SweepRun{});
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "sweep_intact");
  CHECK_FALSE(f[0].passed);
}

// --- 2. the four combinations ------------------------------------------------------------

namespace {

ch06::CallTiming call(ch06::HostKind memory, bool async_call, double returned, double done) {
  ch06::CallTiming c;
  c.memory = memory;
  c.async_call = async_call;
  c.returned_ms = around(returned);
  c.done_ms = around(done);
  c.check = intact(256 * kMiB);
  return c;
}

ch06::CallsRun calls(double pageable_async_returned, double pinned_async_returned) {
  ch06::CallsRun run;
  run.bytes = 256 * kMiB;
  run.calls = {call(ch06::HostKind::pageable, false, 34.5, 34.6),
               call(ch06::HostKind::pageable, true, pageable_async_returned, 34.6),
               call(ch06::HostKind::pinned, false, 4.9, 4.9),
               call(ch06::HostKind::pinned, true, pinned_async_returned, 4.9)};
  return run;
}

}  // namespace

TEST_CASE("copy calls: the expected run") {
  const ch06::CallsRun run = calls(34.5, 0.007);
  const lab::ResultTable table = ch06::calls_table(run);
  CHECK(table.id() == "calls");
  CHECK(lab_test::cell(table, "pinned cudaMemcpyAsync", "returned_percent") == doctest::Approx(100 * 0.007 / 4.9));
  CHECK(lab_test::cell(table, "pageable cudaMemcpyAsync", "returned_percent") == doctest::Approx(100 * 34.5 / 34.6));
  CHECK(table.row("pinned cudaMemcpyAsync").get("host").text() !=
        table.row("pageable cudaMemcpyAsync").get("host").text());
  const std::vector<lab::Finding> f = ch06::calls_checks(run);
  REQUIRE(f.size() == 2);
  CHECK(by_id(f, "calls_intact").passed);
  CHECK(by_id(f, "pinned_async_returns").passed);
  CHECK(value(f, "pinned_async_returns", "returned_ms") == doctest::Approx(0.007));
}

TEST_CASE("copy calls: a pinned call that returned after half the copy, a wrong copy") {
  ch06::CallsRun run = calls(1.0, 4.0);
  run.calls[2].check = broken(256 * kMiB);
  const std::vector<lab::Finding> f = ch06::calls_checks(run);
  CHECK_FALSE(by_id(f, "calls_intact").passed);
  CHECK_FALSE(by_id(f, "pinned_async_returns").passed);
  CHECK(value(f, "pinned_async_returns", "done_ms") == doctest::Approx(4.9));
  CHECK_FALSE(ch06::calls_checks(ch06::CallsRun{})[0].passed);  // no calls: nothing was checked
}

// --- 3. registration ---------------------------------------------------------------------------

namespace {

ch06::RegistrationRun registration(std::size_t bytes, double reg, double pageable, double pinned) {
  ch06::RegistrationRun r;
  r.bytes = bytes;
  r.register_ms = around(reg);
  r.unregister_ms = around(reg / 3);
  r.pageable_copy_ms = around(pageable);
  r.registered_copy_ms = around(pinned);
  r.contents = intact(bytes);
  r.copied = intact(bytes);
  return r;
}

ch06::UploadRun upload(double fresh_register, double again_register) {
  ch06::UploadRun run;
  run.bytes = 256 * kMiB;
  run.fresh = {60.0, fresh_register, 0.01, 4.9, 4.6};
  for (int i = 0; i < 5; ++i) run.repeated.push_back({0.0, again_register, 0.01, 4.9, 4.6});
  run.lesson_first_touch_ms = 60.0;
  run.lesson_returned_ms = fresh_register + 0.01;
  run.lesson_done_ms = fresh_register + 9.5;
  run.correct = true;
  run.detail = "all correct";
  return run;
}

}  // namespace

TEST_CASE("registration: tables") {
  const std::vector<ch06::RegistrationRun> runs = {registration(kMiB, 0.3, 0.09, 0.03),
                                                   registration(256 * kMiB, 12.9, 35.0, 4.9),
                                                   registration(1024 * kMiB, 50.0, 5.0, 5.0)};
  const lab::ResultTable table = ch06::registration_table(runs);
  CHECK(table.id() == "registration");
  CHECK(table.row("256MiB").get("copies_to_break_even").integer() == 1);
  CHECK(table.row("1MiB").get("copies_to_break_even").integer() == 7);  // 0.4 ms to register, 0.06 ms saved a copy
  CHECK(table.row("1GiB").get("copies_to_break_even").text() == "never");
  CHECK(lab_test::cell(table, "1MiB", "saved_ms") == doctest::Approx(0.06));
  const lab::ResultTable phases = ch06::upload_table(upload(18.0, 12.0));
  CHECK(phases.id() == "upload");
  CHECK(lab_test::cell(phases, "fresh vector, the calls one by one", "returned_ms") == doctest::Approx(18.01));
  CHECK(lab_test::cell(phases, "fresh vector, the calls one by one", "total_ms") == doctest::Approx(27.51));
  CHECK(lab_test::cell(phases, "the same vector again (median)", "register_ms") == doctest::Approx(12.0));
  CHECK(phases.row("ch06::upload_registered, another fresh vector").get("register_ms").is_none());
  CHECK(lab_test::cell(phases, "ch06::upload_registered, another fresh vector", "total_ms") == doctest::Approx(27.5));
}

TEST_CASE("registration: intact, a changed buffer, a wrong upload") {
  const std::vector<ch06::RegistrationRun> runs = {registration(kMiB, 0.2, 0.09, 0.03),
                                                   registration(256 * kMiB, 12.9, 35.0, 4.9)};
  ch06::UploadRun phases = upload(18.0, 12.0);
  std::vector<lab::Finding> f = ch06::registration_checks(runs, phases);
  REQUIRE(f.size() == 1);
  CHECK(by_id(f, "registration_intact").passed);

  std::vector<ch06::RegistrationRun> changed = {registration(kMiB, 0.2, 0.03, 0.03)};
  changed[0].contents = broken(kMiB);
  CHECK_FALSE(by_id(ch06::registration_checks(changed, phases), "registration_intact").passed);
  phases.correct = false;
  CHECK_FALSE(by_id(ch06::registration_checks(runs, phases), "registration_intact").passed);
}

// --- 4. CPU time freed ---------------------------------------------------------------------------

namespace {

ch06::CpuFreedRun freed(double overlapped, double pageable, double early) {
  ch06::CpuFreedRun run;
  run.bytes = 256 * kMiB;
  run.copy_ms = around(4.9);
  run.pageable_copy_ms = around(34.4);  // with the CPU work, 39.2 ms one after the other
  run.cpu_ms = around(4.8);
  run.overlapped = {"pinned, cudaMemcpyAsync, CPU work, sync", around(overlapped), intact(run.bytes)};
  run.pageable = {"pageable, cudaMemcpyAsync, CPU work, sync", around(pageable), intact(run.bytes)};
  run.early_sync = {"pinned, cudaMemcpyAsync, sync, CPU work", around(early), intact(run.bytes)};
  return run;
}

}  // namespace

TEST_CASE("CPU time freed: the expected run") {
  const ch06::CpuFreedRun run = freed(4.9, 39.2, 9.7);
  const lab::ResultTable table = ch06::cpu_freed_table(run);
  CHECK(table.id() == "cpu_freed");
  CHECK(lab_test::cell(table, "pinned, cudaMemcpyAsync, sync, CPU work", "vs_sum_percent") ==
        doctest::Approx(100.0).epsilon(0.01));
  CHECK(lab_test::cell(table, "pinned, cudaMemcpyAsync, sync, CPU work", "vs_own_serial_percent") ==
        doctest::Approx(100.0).epsilon(0.01));
  CHECK(lab_test::cell(table, "the pageable copy alone (events)", "median") == doctest::Approx(34.4));
  const std::vector<lab::Finding> f = ch06::cpu_freed_checks(run);
  CHECK(by_id(f, "cpu_freed_intact").passed);
  CHECK(by_id(f, "overlap").passed);
  CHECK(value(f, "overlap", "sum_ms") == doctest::Approx(9.7));
}

// The pageable order against its own serial time (the pageable copy and the work), not against the pinned copy's.
TEST_CASE("CPU time freed: the pageable row is measured against its own copy") {
  const lab::ResultTable table = ch06::cpu_freed_table(freed(4.9, 39.2, 9.7));
  const std::string pageable = "pageable, cudaMemcpyAsync, CPU work, sync";
  CHECK(lab_test::cell(table, pageable, "vs_own_serial_percent") == doctest::Approx(100.0).epsilon(0.01));
  CHECK(lab_test::cell(table, pageable, "vs_sum_percent") == doctest::Approx(404.1).epsilon(0.01));  // 39.2 / 9.7
  CHECK(lab_test::cell(table, "pinned, cudaMemcpyAsync, CPU work, sync", "vs_own_serial_percent") ==
        doctest::Approx(50.5).epsilon(0.01));  // 4.9 / 9.7: the pinned orders keep the pinned base
}

TEST_CASE("CPU time freed: no overlap, a wrong copy") {
  ch06::CpuFreedRun run = freed(9.6, 39.2, 9.7);
  run.pageable.check = broken(run.bytes);
  const std::vector<lab::Finding> f = ch06::cpu_freed_checks(run);
  CHECK_FALSE(by_id(f, "cpu_freed_intact").passed);
  CHECK_FALSE(by_id(f, "overlap").passed);
  CHECK(value(f, "overlap", "overlapped_ms") == doctest::Approx(9.6));
  CHECK(value(f, "overlap", "saved_percent") == doctest::Approx(100.0 * 0.1 / 4.8));
}

// "Overlapped" is judged by the share of the most an overlap can save, min(copy, cpu), that the order
// saved; each case below is one that a fixed share of the sum (under 80 % of copy + cpu) misjudges.
TEST_CASE("CPU time freed: overlap judged against what a perfect overlap saves") {
  ch06::CpuFreedRun run = freed(4.95, 39.2, 5.4);
  run.cpu_ms = around(0.5);  // short CPU work, hidden almost whole: 4.95 of 5.4 ms is 92 % of the sum
  std::vector<lab::Finding> f = ch06::cpu_freed_checks(run);
  CHECK(by_id(f, "overlap").passed);
  CHECK(value(f, "overlap", "possible_saving_ms") == doctest::Approx(0.5));
  CHECK(value(f, "overlap", "saved_percent") == doctest::Approx(90.0));

  run = freed(7.6, 39.2, 9.7);  // copy 4.9, CPU 4.8: 7.6 ms is 78 % of the sum, but saved 2.1 of 4.8 ms
  f = ch06::cpu_freed_checks(run);
  CHECK_FALSE(by_id(f, "overlap").passed);
  CHECK(value(f, "overlap", "saved_percent") == doctest::Approx(43.75));

  run = freed(5.0, 39.2, 6.0);  // copy 4, CPU 2, 5 ms: exactly half of the 2 ms saving, enough
  run.copy_ms = around(4.0);
  run.cpu_ms = around(2.0);
  f = ch06::cpu_freed_checks(run);
  CHECK(by_id(f, "overlap").passed);
  CHECK(value(f, "overlap", "saved_percent") == doctest::Approx(50.0));
  run.overlapped.wall_ms = around(5.05);  // a little less saved: not enough
  CHECK_FALSE(by_id(ch06::cpu_freed_checks(run), "overlap").passed);
}

// --- 5a. write-combined ------------------------------------------------------------------------

namespace {

ch06::WriteCombinedRun combined(double wc_read_gbps, double wc_h2d_ms) {
  ch06::WriteCombinedRun run;
  run.bytes = 256 * kMiB;
  run.pinned_h2d_ms = around(4.9);
  run.wc_h2d_ms = around(wc_h2d_ms);
  run.pinned_read_gbps = 8.7;
  run.pinned_write_gbps = 9.0;
  run.wc_read_gbps = wc_read_gbps;
  run.wc_write_gbps = 9.1;
  run.round_trip = intact(run.bytes);
  return run;
}

}  // namespace

TEST_CASE("write-combined: the table, a round trip intact or wrong") {
  ch06::WriteCombinedRun run = combined(0.5, 4.0);
  const lab::ResultTable table = ch06::write_combined_table(run);
  CHECK(table.id() == "write_combined");
  CHECK(lab_test::cell(table, "write-combined", "cpu_read_gbps") == doctest::Approx(0.5));
  CHECK(lab_test::cell(table, "write-combined", "h2d_gbps") == doctest::Approx(256 * kMiB / 4.0e6));
  CHECK(lab_test::cell(table, "pinned", "cpu_read_gbps") == doctest::Approx(8.7));
  CHECK(by_id(ch06::write_combined_checks(run), "write_combined_intact").passed);
  run.round_trip = broken(run.bytes);
  CHECK_FALSE(by_id(ch06::write_combined_checks(run), "write_combined_intact").passed);
}

// --- 5b. mapped memory ---------------------------------------------------------------------------

namespace {

ch06::ZeroCopyPasses passes(int count, double copy_first, double zero) {
  ch06::ZeroCopyPasses z;
  z.passes = count;
  z.copy_then_kernel_ms = around(copy_first);
  z.zero_copy_ms = around(zero);
  z.correct = true;
  z.detail = "exact";
  return z;
}

ch06::MappedRun mapped(bool unified, bool same) {
  ch06::MappedRun run;
  run.bytes = 256 * kMiB;
  run.unified_addressing = unified;
  run.plain_pinned_device_pointer_same = same;
  run.passes = {passes(1, 5.35, 5.38), passes(4, 6.4, 21.2), passes(2, 10.0, 6.0)};
  return run;
}

}  // namespace

TEST_CASE("zero-copy: the table says which way won") {
  const lab::ResultTable table = ch06::zero_copy_table(mapped(true, true));
  CHECK(table.id() == "zero_copy");
  CHECK(table.row("1 time").get("faster").text() == "the same (within 5 %)");
  CHECK(table.row("4 times").get("faster").text() == "copy first, 3.31x");
  CHECK(table.row("2 times").get("faster").text() == "zero-copy, 1.67x");
  CHECK(lab_test::cell(table, "4 times", "zero_copy_ms") == doctest::Approx(21.2));
}

TEST_CASE("zero-copy: correctness, and unified addressing checked, failed or skipped") {
  std::vector<lab::Finding> f = ch06::zero_copy_checks(mapped(true, true));
  CHECK(by_id(f, "zero_copy_exact").passed);
  CHECK(by_id(f, "unified_addressing").id == "unified_addressing");
  CHECK(by_id(f, "unified_addressing").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(f, "unified_addressing").passed);
  f = ch06::zero_copy_checks(mapped(true, false));  // the Runtime API promises the same pointer
  CHECK_FALSE(by_id(f, "unified_addressing").passed);
  ch06::MappedRun run = mapped(false, false);
  run.passes[1].correct = false;
  f = ch06::zero_copy_checks(run);
  CHECK(by_id(f, "unified_addressing").id == "unified_addressing.skipped");
  CHECK(by_id(f, "unified_addressing").kind == lab::Finding::Kind::observation);
  CHECK_FALSE(by_id(f, "zero_copy_exact").passed);
  CHECK_FALSE(by_id(ch06::zero_copy_checks(ch06::MappedRun{}), "zero_copy_exact").passed);  // nothing ran
}
