#include "tables.hpp"

#include <limits>

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch13 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// --- 1. The gallery, read by a naive event pair ---------------------------------

lab::ResultTable naive_table(const GalleryRun& run) {
  lab::ResultTable table("naive", "Each workload timed by an event pair on the caller's stream, beside CUPTI",
                         "workload",
                         {{"kind", "kind", "", 0},
                          {"naive_first_us", "naive 1st", "us", 2},
                          {"naive_median_us", "naive median", "us", 2},
                          {"cupti_span_us", "CUPTI span", "us", 2},
                          {"cupti_busy_us", "CUPTI busy", "us", 2},
                          {"truth_us", "true time", "us", 2},
                          {"naive_over_truth", "naive / true", "x", 2}});
  for (const WorkloadRun& w : run.workloads) {
    lab::ResultTable::Row& row = table.add_row(w.name);
    row.set("id", w.id).set("kind", w.honest ? "honest" : "adversary");
    row.set("naive_first_us", w.naive_us.empty() ? kNaN : w.naive_us.front());
    row.set("naive_median_us", lab::median_or_nan(w.naive_us));
    row.set("cupti_span_us", lab::median_or_nan(w.naive_cupti_span_us));
    row.set("cupti_busy_us", lab::median_or_nan(w.naive_cupti_busy_us));
    row.set("truth_us", truth_us(w)).set("naive_over_truth", naive_reading_us(w) / truth_us(w));
  }
  table.note(
      "each call meets an idle GPU; CUPTI: the call's kernels and copies, to the last one's end; true time: "
      "CUPTI's span (the first call's where later calls skip the work); naive / true: the first call for a first "
      "launch, else medians");
  return table;
}

// --- 2. The reference harness ---------------------------------------------------

lab::ResultTable reference_table(const GalleryRun& run) {
  lab::ResultTable table("reference", "Each workload timed by the reference harness, beside CUPTI", "workload",
                         {{"kind", "kind", "", 0},
                          {"reading_us", "reading", "us", 2},
                          {"cupti_us", "CUPTI span", "us", 2},
                          {"difference_percent", "vs CUPTI", "%", 1},
                          {"tolerance_us", "tolerance", "us", 2},
                          {"host_us", "host in call", "us", 1},
                          {"verdict", "verdict", "", 0}});
  for (const WorkloadRun& w : run.workloads) {
    const Verdict v = reference_verdict(w);
    const double reading = v.refused() ? kNaN : reference_reading_us(w, run.empty_pair_us);
    const double cupti = reference_cupti_us(w);
    lab::ResultTable::Row& row = table.add_row(w.name);
    row.set("id", w.id).set("kind", w.honest ? "honest" : "adversary").set("reading_us", reading);
    row.set("cupti_us", cupti).set("difference_percent", lab::percent_above(reading, cupti));
    row.set("tolerance_us", tolerance_us(cupti)).set("host_us", reference_host_us(w));
    row.set("verdict", v.reason).set("branch", v.branch);
  }
  table.note(lab::format(
      "reading: events behind a held stream, every declared stream forked from the start event and joined before "
      "the stop event, median less the empty pair (%.2f us); fresh inputs and a poisoned output on every call",
      lab::median_or_nan(run.empty_pair_us)));
  return table;
}

// --- 3. Two quantities for a short kernel ----------------------------------------

lab::ResultTable sequence_table(const SequenceRun& run) {
  lab::ResultTable table(
      "sequence", lab::format("%s: alone, and per kernel in a sequence of %d", run.workload.c_str(), run.kernels),
      "how", {{"median", "median", "us", 2}, {"cupti_us", "CUPTI", "us", 2}});
  table.add_row("alone (reference harness)").set("median", run.lone_us).set("cupti_us", run.lone_cupti_us);
  table.add_row("K on a held stream / K")
      .samples(run.stream_us, "us")
      .set("cupti_us", lab::median_or_nan(run.stream_cupti_us));
  table.add_row("graph of K / K").samples(run.graph_us, "us").set("cupti_us", lab::median_or_nan(run.graph_cupti_us));
  table.note("CUPTI: alone, the span of the call; in a sequence, the sum of the kernels' durations / K");
  return table;
}

}  // namespace ch13
