// Chapter 10, sections 1 and 2 on the GPU: plain and PDL chains equal the
// CPU, an early trigger makes consecutive kernels overlap where plain launches
// do not, a read before the wait goes wrong and the fix does not, a captured
// PDL chain has K-1 programmatic edges, and every graph replays right. Every
// case needs compute capability 9.0: below it, each skips (exit 77) with the
// reason (tests/CMakeLists.txt lists them as SKIPPABLE "pdl:*").
#include <doctest/doctest.h>

#include <string>

#include "check.cuh"
#include "checks.hpp"
#include "dependent_chain.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "support/skip.hpp"

namespace {

const lab::DeviceInfo& device() {
  static const lab::DeviceInfo info = lab::query_device(0);
  return info;
}

void require_pdl() {
  std::string why;
  if (!ch10::pdl_supported(&why)) lab_test::skip(why);
}

const ch10::ChainVariant& variant(const ch10::ChainRun& run, const std::string& name) {
  for (const ch10::ChainVariant& v : run.variants)
    if (v.name == name) return v;
  FAIL("no variant " << name);
  return run.variants.front();
}

}  // namespace

TEST_CASE("pdl: plain and PDL chains equal the CPU, and only an early trigger overlaps kernels") {
  require_pdl();
  // A 0.5 us preamble, the chapter's: with 2 us an early trigger bought no overlap on the H100 (the next
  // kernel's blocks started about when this one's ended), so a longer one would not test the trigger.
  const ch10::ChainRun run = ch10::run_pdl_stream(1 << 16, 20, 0.5, 5, 3, false, device());
  REQUIRE_FALSE(run.skipped);
  REQUIRE(run.variants.size() == 3);
  for (const ch10::ChainVariant& v : run.variants) {
    CHECK_MESSAGE(v.wrong.empty(), v.name << ": " << v.wrong);
    CHECK(v.results_checked == 5);
  }
  const ch10::StampSummary plain = ch10::summarize_stamps(variant(run, "plain").stamps, run.kernels, run.blocks);
  const ch10::StampSummary early =
      ch10::summarize_stamps(variant(run, "pdl_early_trigger").stamps, run.kernels, run.blocks);
  REQUIRE(plain.overlap_us.size() == 19);
  const double plain_overlap = lab::median(plain.overlap_us), early_overlap = lab::median(early.overlap_us);
  CHECK_MESSAGE(plain_overlap <= plain.step_us, "plain overlap " << plain_overlap << " us, step " << plain.step_us);
  CHECK_MESSAGE(early_overlap > early.step_us,
                "early-trigger overlap " << early_overlap << " us, step " << early.step_us);
}

TEST_CASE("pdl: a secondary that began before the primary's stores and never waits reads wrong; the fix reads right") {
  require_pdl();
  const ch10::MisuseRun run = ch10::run_pdl_misuse(7, false, device());
  REQUIRE_FALSE(run.skipped);
  REQUIRE(run.cases.size() == (run.held_why_not.empty() ? 6 : 3));  // then the three behind a held stream
  for (std::size_t first : {std::size_t{0}, std::size_t{3}}) {
    if (first >= run.cases.size()) break;
    const ch10::MisuseCase& never = run.cases[first + 1];
    REQUIRE(never.name == (first == 0 ? "never_waits" : "never_waits_held"));
    // A race's outcome is not asserted; what must hold: a secondary that was running
    // long before every primary block began its stores, and never waited, read the poison.
    if (never.lead_us > 10.0)
      CHECK_MESSAGE(never.result.mismatches > 0, never.name << " began " << never.lead_us
                                                            << " us before the last store start, no wait, "
                                                               "yet read the primary's output: "
                                                            << never.result.detail());
    CHECK_MESSAGE(run.cases[first + 2].result.passed(), run.cases[first + 2].result.detail());
  }
}

TEST_CASE("pdl: a captured PDL chain has K-1 programmatic edges, a plain one none, and both replay right") {
  require_pdl();
  lab::Stream stream(cudaStreamNonBlocking);
  ch10::DependentChain chain(10007, 7, 0.5, 5, device());
  for (ch10::Launch how : {ch10::Launch::plain, ch10::Launch::pdl, ch10::Launch::pdl_early_trigger}) {
    CAPTURE(ch10::launch_name(how));
    const ch08::Graph graph = ch10::capture_chain(chain, how, stream);
    int edges = -1, programmatic = -1;
    ch10::count_edges(graph.get(), edges, programmatic);
    CHECK(edges == 6);
    CHECK(programmatic == (how == ch10::Launch::plain ? 0 : 6));
    const ch08::GraphExec exec = ch08::instantiate(graph);
    for (int replay = 0; replay < 3; ++replay) {
      chain.poison(stream);
      REQUIRE(cudaGraphLaunch(exec.get(), stream) == cudaSuccess);
      stream.synchronize();
      const lab::Comparison result = chain.check();
      CHECK_MESSAGE(result.passed(), result.detail());
    }
  }
}

TEST_CASE("pdl: the graph built by hand with programmatic edges replays right") {
  require_pdl();
  lab::Stream stream(cudaStreamNonBlocking);
  ch10::DependentChain chain(10007, 9, 0.5, 9, device());
  const ch08::Graph graph = ch10::build_chain_with_edges(chain);
  int edges = -1, programmatic = -1;
  ch10::count_edges(graph.get(), edges, programmatic);
  CHECK(edges == 8);
  CHECK(programmatic == 8);
  const ch08::GraphExec exec = ch08::instantiate(graph);
  chain.poison(stream);
  REQUIRE(cudaGraphLaunch(exec.get(), stream) == cudaSuccess);
  stream.synchronize();
  const lab::Comparison result = chain.check();
  CHECK_MESSAGE(result.passed(), result.detail());
}

TEST_CASE("pdl: section 2's run checks every replay, counts the edges, and PDL is not slower than plain by half") {
  require_pdl();
  const ch10::ChainRun run = ch10::run_pdl_graph(1 << 16, 50, 0.5, 5, 11, device());
  REQUIRE(run.variants.size() == 4);
  for (const ch10::ChainVariant& v : run.variants) {
    CHECK_MESSAGE(v.wrong.empty(), v.name << ": " << v.wrong);
    CHECK(v.results_checked == 5);
    CHECK(v.edges == 49);
  }
  CHECK(variant(run, "graph_pdl_edges").programmatic_edges == 49);
  const double plain = lab::median(variant(run, "graph_plain").per_kernel_us);
  const double pdl = lab::median(variant(run, "graph_pdl").per_kernel_us);
  CHECK_MESSAGE(pdl < 1.5 * plain, "graph_pdl " << pdl << " us, graph_plain " << plain << " us per kernel");
}
