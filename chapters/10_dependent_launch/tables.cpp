#include "tables.hpp"

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

// Each variant's median per kernel over the first variant's (plain, or graph_plain).
double to_plain(const ChainRun& run, const ChainVariant& v) {
  return lab::median_or_nan(v.per_kernel_us) / lab::median_or_nan(run.variants.front().per_kernel_us);
}

const char* documented_text(Documented d) {
  return d == Documented::prohibited ? "prohibited" : d == Documented::allowed ? "allowed" : "not stated";
}

}  // namespace

// --- 1. PDL in a stream ------------------------------------------------------------------

// 1 and 2: the chain in a stream, or (@p graph) as graphs: the same columns, a graph's edges, a stream's waits.
static lab::ResultTable chain_table(const ChainRun& run, bool graph) {
  std::vector<lab::Column> columns = {{"median", "per kernel", "us", 2},
                                      {"min", "min", "us", 2},
                                      {"max", "max", "us", 2},
                                      {"count", "samples", "", 0},
                                      {"to_plain", "to plain", "x", 2}};
  if (graph) columns.insert(columns.end(), {{"edges", "edges", "", 0}, {"programmatic_edges", "programmatic", "", 0}});
  columns.push_back({"overlap_us", "overlap (median)", "us", 2});
  if (!graph)
    columns.insert(columns.end(),
                   {{"pairs_overlapped", "pairs overlapped", "", 0}, {"waited_us", "start to wait's end", "us", 2}});
  columns.push_back({"mismatches", "mismatches", "", 0});
  lab::ResultTable table(
      graph ? "pdl_graph" : "pdl_stream",
      graph ? lab::format("The %d-kernel chain as a graph, replayed between two events, / K", run.kernels)
            : lab::format("%d dependent kernels on %lld floats, %d blocks each, %.2f us preamble", run.kernels,
                          (long long)run.n, run.blocks, run.preamble_us),
      graph ? "graph" : "launch", columns);
  for (const ChainVariant& v : run.variants) {
    const StampSummary s = summarize_stamps(v.stamps, run.kernels, run.blocks);
    lab::ResultTable::Row& row = table.add_row(v.name).samples(v.per_kernel_us, "us").set("to_plain", to_plain(run, v));
    if (graph)
      row.set("edges", static_cast<long long>(v.edges))
          .set("programmatic_edges", static_cast<long long>(v.programmatic_edges));
    row.set("overlap_us", lab::median_or_nan(s.overlap_us));
    if (!graph) row.set("pairs_overlapped", static_cast<long long>(s.pairs_overlapped)).set("waited_us", s.waited_us);
    row.set("mismatches", static_cast<long long>(v.mismatches));
  }
  const std::string stream_note =
      std::string(run.held ? "events around the K launches queued behind a held stream, / K"
                           : "events around the K launches (stream not held: too many, or instrumented), / K") +
      "; overlap: last block end of kernel k less first block start of k+1 (> 0: overlap)";
  table.note(run.skipped ? "skipped: " + run.skip_reason
             : graph     ? "all captured (cudaStreamBeginCapture) except graph_pdl_edges, built by hand with "
                           "cudaGraphAddNode and programmatic edges; programmatic: type and port, from cudaGraphGetEdges"
                         : stream_note);
  return table;
}

lab::ResultTable pdl_stream_table(const ChainRun& run) { return chain_table(run, false); }

lab::ResultTable pdl_graph_table(const ChainRun& run) { return chain_table(run, true); }

lab::ResultTable overlap_table(const std::string& id, const ChainRun& run) {
  lab::ResultTable table(id, "Every consecutive pair: kernel k's last block end less kernel k+1's first block start",
                         "launch",
                         {{"median", "median", "us", 3},
                          {"min", "min", "us", 3},
                          {"max", "max", "us", 3},
                          {"count", "pairs", "", 0},
                          {"step_us", "timer step", "us", 3}});
  for (const ChainVariant& v : run.variants) {
    const StampSummary s = summarize_stamps(v.stamps, run.kernels, run.blocks);
    lab::ResultTable::Row& row = table.add_row(v.name).set("step_us", s.step_us);
    if (!s.overlap_us.empty()) row.samples(s.overlap_us, "us");
  }
  table.note("from %globaltimer stamps of the last sample; the step is the smallest difference between two stamps");
  return table;
}

lab::ResultTable pdl_misuse_table(const MisuseRun& run) {
  lab::ResultTable table(
      "pdl_misuse",
      lab::format("A PDL secondary behind a primary that triggers at once and writes %.0f us later", run.delay_us),
      "secondary",
      {{"mismatches", "mismatches", "", 0},
       {"first_bad_index", "first bad index", "", 0},
       {"lead_us", "began before last store", "us", 1}});
  for (const MisuseCase& c : run.cases) {
    lab::ResultTable::Row& row =
        table.add_row(c.name).set("mismatches", static_cast<long long>(c.result.mismatches)).set("lead_us", c.lead_us);
    if (!c.result.first.empty()) row.set("first_bad_index", static_cast<long long>(c.result.first.front().index));
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "began before last store: the latest store start of a primary block less the secondary's "
                           "first block start (%globaltimer; > 0: the secondary began before the last primary block "
                           "began its stores); "
                           "_held: both queued behind a held stream; every kernel run once before");
  return table;
}

// --- 4. Timing inside a graph --------------------------------------------------

lab::ResultTable graph_timing_table(const GraphTimingRun& run) {
  lab::ResultTable table(
      "graph_timing",
      lab::format("One kernel node of seven in a replayed graph (%lld floats), timed four ways", (long long)run.n),
      "what",
      {{"median", "median", "us", 3},
       {"min", "min", "us", 3},
       {"max", "max", "us", 3},
       {"count", "samples", "", 0},
       {"returned", "cudaEventElapsedTime", "", 0}});
  const auto add = [&](const char* name, const std::vector<double>& us, const std::string& returned) {
    lab::ResultTable::Row& row = table.add_row(name);
    if (!us.empty()) row.samples(us, "us");
    row.set("returned", returned);
  };
  add("external_pair", run.external_us, run.external_returned);
  add("external_floor", run.floor_us, run.floor_returned);
  add("cupti_node", run.cupti_us, run.cupti_us.empty() ? "not recorded: " + run.cupti_missing : "(CUPTI)");
  add("default_pair", run.default_us, run.default_returned);
  table.note(
      "external: cudaEventRecordWithFlags(..., cudaEventRecordExternal) during capture; floor: such a pair "
      "around nothing; default: plain cudaEventRecord during capture");
  return table;
}

// --- 5. What stream capture forbids --------------------------------------------

lab::ResultTable capture_calls_table(const CaptureRun& run) {
  lab::ResultTable table("capture_calls", "Calls made while a stream captures, one child process each", "call / mode",
                         {{"documented", "documented", "", 0},
                          {"returned", "returned", "", 0},
                          {"status_after", "capture after", "", 0},
                          {"end_capture", "cudaStreamEndCapture", "", 0},
                          {"graph", "graph", "", 0},
                          {"context", "context after", "", 0}});
  for (const CaptureProbe& p : run.probes) {
    lab::ResultTable::Row& row = table.add_row(p.call + " / " + p.mode);
    row.set("documented", documented_text(documented(p.mode, p.call)));
    if (!p.measured) {
      row.set("returned", "not measured").set("why_not", p.why_not);
      continue;
    }
    row.set("returned", p.returned)
        .set("status_after", p.status_after)
        .set("end_capture", p.end_capture)
        .set("graph", p.end_capture == "-" ? "-"
                      : p.graph_null       ? "NULL"
                                           : "a graph")
        .set("context", p.context);
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "each child: begin capture, queue a kernel, the call, cudaStreamIsCapturing, "
                           "cudaStreamEndCapture, then a kernel, a copy and a sync (context after)");
  return table;
}

}  // namespace ch10
