// Chapter 11, sections 3 to 5 on the GPU: a chain with host functions keeps
// its order and every host call runs, and a host function leaves the GPU idle
// longer than no host function; the spin blocker holds a block of a full wave
// back where cuStreamWaitValue32 does not, and both hold their stream; green
// contexts keep the urgent and the long kernel on disjoint SMs. A case whose
// feature the GPU or driver lacks skips (exit 77) with the reason
// (tests/CMakeLists.txt should list them as SKIPPABLE "green:*" "wait_value:*").
#include <doctest/doctest.h>

#include <string>

#include "device.cuh"
#include "green_contexts.cuh"
#include "host_calls.cuh"
#include "host_work.cuh"
#include "statistics.hpp"
#include "support/skip.hpp"
#include "wait_value.cuh"

namespace {

const lab::DeviceInfo& device() {
  static const lab::DeviceInfo info = lab::query_device(0);
  return info;
}

const ch11::HostChainVariant& variant(const ch11::HostChainRun& run, const std::string& name) {
  for (const ch11::HostChainVariant& v : run.variants)
    if (v.name == name) return v;
  FAIL("no variant " << name);
  return run.variants.front();
}

}  // namespace

TEST_CASE("host chain: every kernel after the one before it, every host call run, a host function costs a gap") {
  const ch11::HostChainRun run = ch11::run_host_chain(6, 10.0, 3, false, device());
  REQUIRE(run.variants.size() == 3);
  for (const ch11::HostChainVariant& v : run.variants) {
    if (v.skipped) continue;
    CAPTURE(v.name);
    CHECK(v.missing == 0);
    CHECK(v.gaps_us.size() == 15);
    for (double gap : v.gaps_us) CHECK(gap >= 0.0);
    CHECK(v.host_calls == v.host_calls_expected);
  }
  CHECK(variant(run, "host_function").host_calls == 15);
  const double plain = lab::median(variant(run, "no_host_function").gaps_us);
  const double host = lab::median(variant(run, "host_function").gaps_us);
  CHECK_MESSAGE(host > plain, "host function gap " << host << " us, none " << plain << " us");
}

TEST_CASE("wait_value: the spin blocker keeps a block of a full wave waiting, the wait-value does not") {
  std::string why;
  if (!ch11::stream_memops_supported(&why)) lab_test::skip(why);
  const ch11::WaitValueRun run = ch11::run_wait_value(100.0, 3, false, device());
  REQUIRE_FALSE(run.skipped);
  REQUIRE(run.ways.size() == 3);
  for (const ch11::WaveWay& w : run.ways) CHECK(w.missing == 0);
  CHECK(run.ways[1].held == 3);  // spin_blocker
  CHECK(run.ways[2].held == 3);  // wait_value
  if (run.blocks_per_sm == 2) {  // a warp of the spin kernel keeps one of an SM's two blocks out
    CHECK(lab::median(run.ways[1].late_blocks) >= 1.0);
    CHECK(lab::median(run.ways[2].late_blocks) == 0.0);
  }
}

TEST_CASE("green: the urgent and the long kernel ran on disjoint SMs, each within its part") {
  ch11::GreenSettings s;
  s.long_waves = 1;
  s.long_block_us = 50.0;
  s.samples = 2;
  const ch11::GreenRun run = ch11::run_green_contexts(s, device());
  if (run.skipped) lab_test::skip(run.skip_reason);
  CHECK(run.small_sms >= s.green_sms);
  CHECK(run.small_sms + run.large_sms <= run.sm_count);
  CHECK(run.shared_sms == 0);
  CHECK(run.urgent_sms_used <= run.small_sms);
  CHECK(run.long_sms_used <= run.large_sms);
  CHECK(run.green_delay_us.size() == 2);
}

TEST_CASE("host calls: each child answers, or is stopped after its time limit; the stream query answers") {
  const ch11::HostCallRun run = ch11::run_host_call_children(CH11_HOST_CALL_CHILD, false, 10.0);
  REQUIRE(run.probes.size() == ch11::host_call_names().size());
  for (const ch11::HostCallProbe& p : run.probes) {
    CAPTURE(p.call);
    if (!p.finished) CHECK_MESSAGE(p.why_not.find("did not finish") != std::string::npos, p.why_not);
    if (p.finished) CHECK(p.returned != "-");  // the host function ran and made its call
  }
  CHECK(run.probes.front().call == "stream_query");
  CHECK(run.probes.front().finished);  // a query of another, idle stream cannot wait
}
