// Chapter 06's findings on hand-made data: every branch of every function in
// chapters/06_pinned_memory/findings.hpp. No GPU.
#include <doctest/doctest.h>

#include "support/findings_support.hpp"

#include <string>
#include <vector>

#include "findings.hpp"

namespace {

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;

using lab_test::contains;

// The finding named @p name; fails the test when there is none.
lab::Finding named(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name == name) return f;
  }
  FAIL("no finding named '" << name << "'");
  return {};
}

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
  for (std::size_t bytes = 4 * kKiB; bytes <= 256 * kMiB; bytes *= 4) run.sizes.push_back(size_row(bytes, h2d_with, d2h_with));
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
}

TEST_CASE("a copy check names the first differing byte") {
  CHECK(intact(4096).detail() == "4096 bytes intact");
  CHECK(broken(4096).detail() == "byte 17 differs (of 4096)");
}

// --- 1. the sweep ----------------------------------------------------------------------

TEST_CASE("sweep tables hold each size's bandwidth") {
  const ch06::SweepRun run = sweep();
  const lab::ResultTable table = ch06::sweep_table(run);
  CHECK(table.rows().size() == run.sizes.size());
  CHECK(table.row("256MiB").get("pageable_h2d_gbps").number() == doctest::Approx(8.0).epsilon(0.01));
  CHECK(table.row("256MiB").get("data").text() == "intact");
  CHECK(contains(table.render(), "behind a blocked stream"));
  // The note says how the pairs were queued, not what they measured: on the H100 the blocked pair
  // of a 4KiB copy read longer than the isolated one, so "the GPU's time only" was not what it showed.
  CHECK_FALSE(contains(table.render(), "the GPU's time only"));
  CHECK(contains(table.render(), "each copy meets an idle GPU"));
  const lab::ResultTable both = ch06::both_directions_table(run);
  CHECK(both.row("256MiB").get("h2d_together_gbps").number() == doctest::Approx(45.0).epsilon(0.01));
  CHECK(both.row("256MiB").get("total_vs_faster_alone").number() == doctest::Approx(90.0 / 55.0).epsilon(0.01));
}

TEST_CASE("sweep: the expected run") {
  const std::vector<lab::Finding> f = ch06::sweep_findings(sweep());
  CHECK(named(f, "every copy of the sweep arrived intact (pageable and pinned, both ways)").passed);
  CHECK(named(f, "pinned copies are faster than pageable ones at --mib, both ways").passed);
  CHECK(named(f, "both directions at once move more than one direction alone").passed);
  const std::string gap = named(f, "what the isolated samples add").text;
  CHECK(contains(gap, "the isolated pair also timed 8.0 us"));
  CHECK(contains(gap, "the isolated pair read +"));  // the large copy: which pair against which
  CHECK(contains(gap, " against the blocked one: the gap is a fixed cost"));
  const std::string cost = named(f, "a cost per copy").text;
  CHECK(contains(cost, "did not depend on its size"));
  CHECK(contains(cost, "reached half of it from"));
  const std::string benchmark = named(f, "benchmark").text;
  CHECK(contains(benchmark, "% of the theoretical rate of the link, PCIe Gen5 x16"));
  const std::string both = named(f, "both directions at once").text;
  CHECK(contains(both, "Each direction lost rate"));
  CHECK(contains(both, "does not measure what"));
}

TEST_CASE("sweep: a wrong copy, pageable as fast as pinned, no link, directions that interfere or not") {
  ch06::SweepRun run = sweep(55, 55);
  run.sizes[2].pinned_check = broken(run.sizes[2].bytes);
  run.sizes.back().pageable_h2d_ms = run.sizes.back().pinned_h2d_ms;
  run.link_gbps = 0;
  std::vector<lab::Finding> f = ch06::sweep_findings(run);
  const lab::Finding wrong = named(f, "every copy of the sweep arrived intact (pageable and pinned, both ways)");
  CHECK_FALSE(wrong.passed);
  CHECK(contains(wrong.text, "64KiB pinned: byte 17 differs"));
  CHECK_FALSE(named(f, "pinned copies are faster than pageable ones at --mib, both ways").passed);
  CHECK(contains(named(f, "benchmark").text, "unknown (NVML could not tell)"));
  CHECK(contains(named(f, "both directions at once").text, "Neither direction lost more than 5 %"));

  f = ch06::sweep_findings(sweep(55, 30));
  CHECK(contains(named(f, "both directions at once").text, "Only D2H lost rate"));
  f = ch06::sweep_findings(sweep(30, 30));
  CHECK_FALSE(named(f, "both directions at once move more than one direction alone").passed);
}

TEST_CASE("sweep: no launch gap, no cost per copy, no blocked stream") {
  ch06::SweepRun run = sweep();
  for (ch06::SizeSamples& s : run.sizes) {
    s.pinned_h2d_ms = around(ms_at(s.bytes, 55));
    s.pinned_h2d_isolated_ms = s.pinned_h2d_ms;
  }
  std::vector<lab::Finding> f = ch06::sweep_findings(run);
  CHECK(contains(named(f, "what the isolated samples add").text, "shows no launch gap"));
  CHECK(contains(named(f, "a cost per copy").text, "shows no cost per copy that matters"));

  run = sweep();  // the H100's run: 4KiB read 4.3 us isolated and 9.6 us behind a held stream
  run.sizes.front().pinned_h2d_isolated_ms = around(0.0043);
  run.sizes.front().pinned_h2d_ms = around(0.0096);
  f = ch06::sweep_findings(run);
  CHECK(contains(named(f, "what the isolated samples add").text, "the blocked pair read 5.3 us more"));
  CHECK(contains(named(f, "what the isolated samples add").text, "neither pair is the copy's own time"));
  CHECK(contains(named(f, "what the isolated samples add").text, "% against the blocked one"));

  run = sweep();
  run.blocked = false;
  run.why_not_blocked = "the holding kernel timed out";
  f = ch06::sweep_findings(run);
  CHECK(named(f, "what the isolated samples add").text ==
        "what the isolated samples add: not measured: the holding kernel timed out");
  CHECK(contains(named(f, "a cost per copy").text, "isolated (the blocked stream was not usable)"));
  CHECK(contains(ch06::sweep_table(run).render(), "isolated (the blocked stream was not usable)"));
}

TEST_CASE("sweep: an empty run fails its check and says nothing else") {
  const std::vector<lab::Finding> f = ch06::sweep_findings(ch06::SweepRun{});
  REQUIRE(f.size() == 1);
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
               call(ch06::HostKind::pinned, false, 4.9, 4.9), call(ch06::HostKind::pinned, true, pinned_async_returned, 4.9)};
  return run;
}

}  // namespace

TEST_CASE("copy calls: the expected run") {
  const ch06::CallsRun run = calls(34.5, 0.007);
  const lab::ResultTable table = ch06::calls_table(run);
  CHECK(table.row("pinned cudaMemcpyAsync").get("host").text() == "went on at once");
  CHECK(table.row("pageable cudaMemcpyAsync").get("host").text() == "waited for the copy");
  const std::vector<lab::Finding> f = ch06::calls_findings(run);
  CHECK(named(f, "the four copy calls delivered the data").passed);
  CHECK(named(f, "cudaMemcpyAsync from pinned memory returned before a tenth of its copy").passed);
  CHECK(contains(named(f, "which calls gave the host its time back").text, "went on at once: pinned cudaMemcpyAsync"));
  CHECK(contains(named(f, "cudaMemcpyAsync from pageable memory").text, "on this driver it waited"));
}

TEST_CASE("copy calls: a pageable call that returned early, a pinned one that waited, a wrong copy") {
  ch06::CallsRun run = calls(1.0, 4.0);
  run.calls[2].check = broken(256 * kMiB);
  const std::vector<lab::Finding> f = ch06::calls_findings(run);
  CHECK_FALSE(named(f, "the four copy calls delivered the data").passed);
  CHECK(contains(named(f, "the four copy calls delivered the data").text, "pinned cudaMemcpy: byte 17"));
  CHECK_FALSE(named(f, "cudaMemcpyAsync from pinned memory returned before a tenth of its copy").passed);
  CHECK(contains(named(f, "cudaMemcpyAsync from pageable memory").text, "before the copy was done"));
  CHECK(ch06::call_name(run.calls[0]) == "cudaMemcpy");
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
                                                   registration(256 * kMiB, 12.9, 35.0, 4.9)};
  const lab::ResultTable table = ch06::registration_table(runs);
  CHECK(table.row("256MiB").get("copies_to_break_even").integer() == 1);
  CHECK(table.row("1MiB").get("saved_ms").number() == doctest::Approx(0.06));
  const lab::ResultTable phases = ch06::upload_table(upload(18.0, 12.0));
  CHECK(phases.row("fresh vector, the calls one by one").get("returned_ms").number() == doctest::Approx(18.01));
  CHECK(phases.row("the same vector again (median)").get("register_ms").number() == doctest::Approx(12.0));
  CHECK(phases.row("ch06::upload_registered, another fresh vector").get("register_ms").is_none());
  CHECK(phases.row("ch06::upload_registered, another fresh vector").get("total_ms").number() == doctest::Approx(27.5));
}

TEST_CASE("registration: it pays, and fresh pages cost more to register") {
  const std::vector<ch06::RegistrationRun> runs = {registration(kMiB, 0.2, 0.09, 0.03),
                                                   registration(256 * kMiB, 12.9, 35.0, 4.9)};
  const std::vector<lab::Finding> f = ch06::registration_findings(runs, upload(18.0, 12.0));
  CHECK(named(f, "registration kept every buffer's contents and its copies arrived").passed);
  const std::string paid = named(f, "when registering paid").text;
  CHECK(contains(paid, "256MiB: on the first copy"));
  CHECK(contains(paid, "1MiB: after "));
  CHECK(contains(paid, "grows with the size"));
  const std::string split = named(f, "where upload_registered's time went").text;
  CHECK(contains(split, "registering this fresh vector took 1.50x registering it again (one fresh vector: one sample)"));
  // The table's 256MiB buffer registered at 12.9 ms, against 18.0 ms fresh: said with both numbers.
  CHECK(contains(split, "The registration table's 256MiB buffer, registered again and again, took 12.900 ms "
                        "(median of 3), 28.3 % less than cudaHostRegister on the fresh vector"));
  CHECK_FALSE(contains(split, "so it reads lower"));
}

TEST_CASE("registration: the table's repeated registrations against the fresh vector, each way") {
  // The H100 run of 2026-11-22: the table read 19.089 ms, a fresh vector 20.284 ms, again 13.143 ms.
  std::vector<ch06::RegistrationRun> runs = {registration(256 * kMiB, 19.089, 37.182, 4.929)};
  std::string split = named(ch06::registration_findings(runs, upload(20.284, 13.143)),
                             "where upload_registered's time went").text;
  CHECK(contains(split, "took 1.54x registering it again"));
  CHECK(contains(split, "took 19.089 ms (median of 3), 5.9 % less than cudaHostRegister on the fresh vector"));

  runs = {registration(256 * kMiB, 25.0, 37.0, 4.9)};
  split = named(ch06::registration_findings(runs, upload(20.0, 13.0)), "where upload_registered's time went").text;
  CHECK(contains(split, "took 25.000 ms (median of 3), 25.0 % more than cudaHostRegister on the fresh vector"));

  runs = {registration(256 * kMiB, 20.5, 37.0, 4.9)};
  split = named(ch06::registration_findings(runs, upload(20.0, 13.0)), "where upload_registered's time went").text;
  CHECK(contains(split, "the same as cudaHostRegister on the fresh vector within 5 %"));

  // No table row of the upload's size: nothing said about the table.
  runs = {registration(kMiB, 0.2, 0.09, 0.03)};
  split = named(ch06::registration_findings(runs, upload(20.0, 13.0)), "where upload_registered's time went").text;
  CHECK_FALSE(contains(split, "registration table"));
}

TEST_CASE("registration: it never pays, fresh pages cost the same, a changed buffer") {
  std::vector<ch06::RegistrationRun> runs = {registration(kMiB, 0.2, 0.03, 0.03)};
  runs[0].contents = broken(kMiB);
  ch06::UploadRun phases = upload(12.0, 12.0);
  phases.fresh.wait_ms = 20.0;
  const std::vector<lab::Finding> f = ch06::registration_findings(runs, phases);
  CHECK_FALSE(named(f, "registration kept every buffer's contents and its copies arrived").passed);
  CHECK(contains(named(f, "when registering paid").text, "1MiB: never"));
  const std::string split = named(f, "where upload_registered's time went").text;
  CHECK(contains(split, "about as long as registering it again (1.00x)"));
  CHECK(contains(split, "The largest phase of the fresh upload was the wait for the copy, 20.000 ms"));

  phases.correct = false;
  CHECK_FALSE(
      named(ch06::registration_findings({registration(kMiB, 0.2, 0.09, 0.03)}, phases),
            "registration kept every buffer's contents and its copies arrived")
          .passed);
}

// --- 4. CPU time freed ---------------------------------------------------------------------------

namespace {

ch06::CpuFreedRun freed(double overlapped, double pageable, double early) {
  ch06::CpuFreedRun run;
  run.bytes = 256 * kMiB;
  run.copy_ms = around(4.9);
  run.cpu_ms = around(4.8);
  run.overlapped = {"pinned, cudaMemcpyAsync, CPU work, sync", around(overlapped), intact(run.bytes)};
  run.pageable = {"pageable, cudaMemcpyAsync, CPU work, sync", around(pageable), intact(run.bytes)};
  run.early_sync = {"pinned, cudaMemcpyAsync, sync, CPU work", around(early), intact(run.bytes)};
  return run;
}

}  // namespace

TEST_CASE("CPU time freed: the expected run") {
  const ch06::CpuFreedRun run = freed(4.9, 39.2, 9.7);
  CHECK(ch06::cpu_freed_table(run).row("pinned, cudaMemcpyAsync, sync, CPU work").get("vs_sum_percent").number() ==
        doctest::Approx(100.0).epsilon(0.01));
  const std::vector<lab::Finding> f = ch06::cpu_freed_findings(run);
  CHECK(named(f, "the copies beside the CPU work arrived").passed);
  CHECK(named(f, "pinned + cudaMemcpyAsync let the CPU work run during the copy").passed);
  CHECK(contains(named(f, "what gives the CPU time back").text, "only both together"));
}

TEST_CASE("CPU time freed: no overlap, orders not apart, a wrong copy") {
  ch06::CpuFreedRun run = freed(9.6, 39.2, 9.7);
  run.pageable.check = broken(run.bytes);
  const std::vector<lab::Finding> f = ch06::cpu_freed_findings(run);
  CHECK_FALSE(named(f, "the copies beside the CPU work arrived").passed);
  CHECK(contains(named(f, "the copies beside the CPU work arrived").text, "pageable: byte 17"));
  CHECK_FALSE(named(f, "pinned + cudaMemcpyAsync let the CPU work run during the copy").passed);
  CHECK(contains(named(f, "what gives the CPU time back").text, "not all 25 % apart"));
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

TEST_CASE("write-combined: slow reads, a faster copy") {
  const ch06::WriteCombinedRun run = combined(0.5, 4.0);
  CHECK(ch06::write_combined_table(run).row("write-combined").get("cpu_read_gbps").number() == doctest::Approx(0.5));
  const std::vector<lab::Finding> f = ch06::write_combined_findings(run);
  CHECK(named(f, "random bytes round-trip through write-combined memory").passed);
  CHECK(contains(named(f, "CPU reads").text, "17.4x slower, as the Programming Guide warns"));
  CHECK(contains(named(f, "the copy").text, "write-combined was 1.23x faster"));
}

TEST_CASE("write-combined: reads as fast as ordinary memory, a slower or equal copy, a wrong round trip") {
  ch06::WriteCombinedRun run = combined(8.8, 6.0);
  run.round_trip = broken(run.bytes);
  std::vector<lab::Finding> f = ch06::write_combined_findings(run);
  CHECK_FALSE(named(f, "random bytes round-trip through write-combined memory").passed);
  CHECK(contains(named(f, "CPU reads").text, "did not appear on this machine, and this run does not show why"));
  CHECK(contains(named(f, "the copy").text, "write-combined was 1.22x slower"));
  f = ch06::write_combined_findings(combined(8.8, 4.92));
  CHECK(contains(named(f, "the copy").text, "the same within 5 %"));
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
  CHECK(table.row("1 time").get("faster").text() == "the same (within 5 %)");
  CHECK(table.row("4 times").get("faster").text() == "copy first, 3.31x");
  CHECK(table.row("2 times").get("faster").text() == "zero-copy, 1.67x");
}

TEST_CASE("zero-copy: each way winning, and unified addressing three ways") {
  std::vector<lab::Finding> f = ch06::zero_copy_findings(mapped(true, true));
  CHECK(named(f, "zero-copy and copy-then-kernel results are exact").passed);
  CHECK(contains(named(f, "unified addressing").text, "equal to its host pointer: a kernel could use that buffer at its host address"));
  CHECK(contains(named(f, "input read 1 time").text, "saved nothing over copying it first"));
  CHECK(contains(named(f, "input read 4 times").text, "copying first was 3.31x faster"));
  // The run times the kernel, not the link: no cause is claimed for the slower zero-copy.
  CHECK_FALSE(contains(named(f, "input read 4 times").text, "crossed the link"));
  CHECK(contains(named(f, "input read 2 times").text, "zero-copy saved 4.000 ms"));

  f = ch06::zero_copy_findings(mapped(true, false));
  CHECK(contains(named(f, "unified addressing").text, "different from its host pointer"));
  ch06::MappedRun run = mapped(false, false);
  run.passes[1].correct = false;
  f = ch06::zero_copy_findings(run);
  CHECK(contains(named(f, "unified addressing").text, "cudaDevAttrUnifiedAddressing = 0"));
  CHECK_FALSE(named(f, "zero-copy and copy-then-kernel results are exact").passed);
}

TEST_CASE("background lines name their sources") {
  for (const auto& lines : {ch06::sweep_background(), ch06::calls_background(), ch06::registration_background(),
                            ch06::write_combined_background(), ch06::zero_copy_background()}) {
    for (const lab::Background& line : lines) {
      CHECK_FALSE(line.text.empty());
      CHECK_FALSE(line.source.empty());
    }
  }
}
