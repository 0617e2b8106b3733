#include "checks.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "child_process.hpp"
#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch03 {

// Passes when every named result is correct (and there is one); else names the first that is not.
static lab::Finding all_correct(const std::string& id, const std::string& name,
                                const std::vector<std::pair<std::string, lab::Comparison>>& results) {
  const auto wrong = std::find_if(results.begin(), results.end(), [](const auto& r) { return !r.second.passed(); });
  return lab::correctness_check(id, name, !results.empty() && wrong == results.end(),
                                wrong != results.end() ? wrong->first + ": " + wrong->second.detail()
                                                       : lab::count_text(results.size(), "result", "results") +
                                                             ", exact comparison with the CPU")
      .with("result_count", results.size());
}

// --- 1. Events as a stopwatch --------------------------------------------------

// The medians agree within 5 %; the text gives what the host timer read more per sample.
std::vector<lab::Finding> stopwatch_checks(const StopwatchRun& run) {
  const double apart = lab::percent_above(lab::median_or_nan(run.host_ms), lab::median_or_nan(run.event_ms));
  std::vector<double> excess_us;  // per sample: host minus events
  for (std::size_t i = 0; i < run.event_ms.size() && i < run.host_ms.size(); ++i)
    excess_us.push_back((run.host_ms[i] - run.event_ms[i]) * 1e3);
  const double excess = lab::median_or_nan(excess_us);
  return {lab::timing_check("events_vs_host", "events and a synchronised host timer agree within 5 % on a long kernel",
                            std::fabs(apart) < 5.0,
                            lab::format("the host timer's median read %s; per sample it read a median of %.1f us more",
                                        lab::signed_percent(apart, 2).c_str(), excess))
              .with("apart_percent", apart)
              .with("excess_us", excess)};
}

// --- 3. Waiting: spin or sleep -------------------------------------------------

constexpr double kSpinShare = 0.5;   // a waiting thread "spun" from this share of the wall time as CPU time
constexpr double kSleepShare = 0.2;  // and "slept" below this one

double cpu_share(const WaitCase& c) { return c.cost.wall_ms > 0 ? c.cost.cpu_ms / c.cost.wall_ms : 0.0; }
bool spun(const WaitCase& c) { return c.measured && cpu_share(c) >= kSpinShare; }
bool slept(const WaitCase& c) { return c.measured && cpu_share(c) < kSleepShare; }

bool wait_call_from_name(const std::string& name, WaitCall& into) {
  const auto found = std::find(std::begin(kWaitCallNames), std::end(kWaitCallNames), name);
  if (found != std::end(kWaitCallNames)) into = static_cast<WaitCall>(found - std::begin(kWaitCallNames));
  return found != std::end(kWaitCallNames);
}

std::string wait_case_line(const WaitCase& measured) {
  return lab::format("ch03_wait_child %s %s %s %.6f %.6f", wait_call_name(measured.call).c_str(),
                     measured.set_flags_result.c_str(), measured.device_flag.c_str(), measured.cost.wall_ms,
                     measured.cost.cpu_ms);
}

bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into) {
  WaitCase got = into;
  std::string name;
  const bool found = lab::find_child_line(text, "ch03_wait_child", [&](std::istream& words) {
    return words >> name >> got.set_flags_result >> got.device_flag >> got.cost.wall_ms >> got.cost.cpu_ms &&
           name == wait_call_name(call) && got.cost.wall_ms >= 0 && got.cost.cpu_ms >= 0;
  });
  if (!found) return false;
  into = got;
  into.call = call;
  into.measured = true;
  into.why_not.clear();
  return true;
}

std::vector<lab::Finding> wait_checks(const WaitRun& run) {
  const WaitCase& c = run.blocking_event;
  lab::Finding f = lab::timing_check(
      "blocking_event", "a cudaEventBlockingSync event lets the waiting thread sleep", c.measured && !spun(c),
      c.measured ? lab::format("CPU %.0f %% of the wait", 100 * cpu_share(c)) : "not measured: " + c.why_not);
  if (c.measured) f.with("wait_cpu_percent", 100 * cpu_share(c));
  return {f};
}

// --- 4. The host stays free ----------------------------------------------------

std::vector<lab::Finding> free_host_checks(const FreeHostRun& run) {
  return {lab::timing_check("host_worked", "the host worked while the kernel ran", run.polls > 0,
                            lab::format("cudaEventQuery answered cudaErrorNotReady %llu times, with CPU work between",
                                        static_cast<unsigned long long>(run.polls)))
              .with("polls", run.polls)};
}

// --- 5. Pitfall 1: what the events bracket ------------------------------------

std::vector<lab::Finding> bracketing_checks(const BracketingRun& run) {
  const double both = lab::median_or_nan(run.copy_and_kernel_us);
  const double after = lab::median_or_nan(run.after_copy_us);
  return {lab::correctness_check("bracketing_result", "c = a + b correct after the bracketing loop",
                                 run.result.passed(), run.result.detail()),
          lab::timing_check("pair_contains_copy",
                            "a pair started before the copy reads more than the pair started after the copy",
                            both > after, lab::format("%.1f us against %.1f us", both, after))
              .with("copy_and_kernel_us", both)
              .with("after_copy_us", after)};
}

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

std::vector<Estimate> estimates(const LaunchGapSize& s) {
  const auto row = [&](const char* name, const GapMethod& m, bool warm, bool minus_pair) {
    return Estimate{name, minus_pair ? nullptr : &m,
                    lab::median_or_nan(m.events_us) - (minus_pair ? s.empty_pair_us : 0.0),
                    lab::median_or_nan(m.cupti_us), warm};
  };
  return {row("back to back", s.back_to_back, true, false),
          row("isolated", s.isolated, true, false),
          row("blocked stream", s.blocked, true, false),
          row("blocked stream - empty pair", s.blocked, true, true),
          row("blocked stream, L2 flushed", s.blocked_flushed, false, false),
          row("blocked stream, L2 flushed - empty pair", s.blocked_flushed, false, true)};
}

std::string why_no_cupti(const LaunchGapSize& s) {
  for (const GapMethod* m : {&s.back_to_back, &s.isolated, &s.blocked, &s.blocked_flushed}) {
    if (!m->cupti_missing.empty()) return m->cupti_missing;
  }
  return "no records";
}

std::string size_text(const LaunchGapSize& s) { return lab::format_count(s.n) + " floats"; }

static lab::Finding launch_gap_results(const LaunchGapRun& run) {
  std::vector<std::pair<std::string, lab::Comparison>> results;  // c after each timing loop
  for (const LaunchGapSize* s : {&run.small, &run.large}) {
    for (const Estimate& e : estimates(*s)) {
      if (e.method != nullptr) results.emplace_back(size_text(*s) + ", " + e.name, e.method->result);
    }
  }
  return all_correct("launch_gap_results", "c = a + b correct after every timing loop", results);
}

// The blocked stream against a lone launch at --n, where the difference is large beside the kernel.
static lab::Finding launch_gap(const LaunchGapSize& s) {
  const double isolated = lab::median_or_nan(s.isolated.events_us);
  const double blocked = lab::median_or_nan(s.blocked.events_us);
  return lab::timing_check(
             "gap_" + s.option, "at " + size_text(s) + " the blocked stream reads less than a lone launch",
             blocked < isolated && blocked > 0,
             lab::format("%.2f us against %.2f us isolated, %.2f us less", blocked, isolated, isolated - blocked))
      .with("isolated_us", isolated)
      .with("blocked_us", blocked);
}

// The warm event method closest to CUPTI's kernel duration, against the page's benchmark (within 5 %).
static lab::Finding closest_to_cupti(const LaunchGapSize& s) {
  constexpr double kBenchmarkTolerance = 0.05;
  const std::string id = "closest_to_cupti_" + s.option;
  const std::string name = "the event method closest to CUPTI at " + size_text(s);
  const auto off = [](const Estimate& e) { return lab::percent_above(e.events_us, e.cupti_us); };
  std::vector<Estimate> all = estimates(s);
  all.erase(std::remove_if(all.begin(), all.end(), [](const Estimate& e) { return !e.warm || std::isnan(e.cupti_us); }),
            all.end());
  if (all.empty()) return lab::skipped(id, name, "CUPTI did not record: " + why_no_cupti(s));
  const Estimate& best = *std::min_element(all.begin(), all.end(), [&](const Estimate& x, const Estimate& y) {
    return std::fabs(off(x)) < std::fabs(off(y));
  });
  const bool met = std::fabs(off(best)) <= 100 * kBenchmarkTolerance;
  return lab::named_observation(id + (met ? ".within_benchmark" : ".outside_benchmark"), name,
                                lab::format("%s read %s against its launches' CUPTI median: %s %.0f %%",
                                            best.name.c_str(), lab::signed_percent(off(best), 1).c_str(),
                                            met ? "within" : "NOT within", 100 * kBenchmarkTolerance))
      .with("events_us", best.events_us)
      .with("cupti_us", best.cupti_us);
}

std::vector<lab::Finding> launch_gap_checks(const LaunchGapRun& run) {
  return {launch_gap_results(run), launch_gap(run.small), closest_to_cupti(run.small), closest_to_cupti(run.large)};
}

// --- 7. Timing many streams ----------------------------------------------------

std::vector<lab::Finding> many_streams_checks(const ManyStreamsRun& run) {
  std::vector<std::pair<std::string, lab::Comparison>> results;
  for (std::size_t i = 0; i < run.results.size(); ++i)
    results.emplace_back(lab::format("stream %zu", i), run.results[i]);
  return {all_correct("many_streams_results", "c = a + b correct on every stream", results)};
}

// --- 8. Pitfall 3: events on another stream -----------------------------------

// A pair agrees with a host timer of the same work within 50 us or 25 %, whichever is larger (the host
// also times the launch call and the wait's return: section 1).
std::vector<lab::Finding> wrong_stream_checks(const WrongStreamRun& run) {
  const double own = lab::median_or_nan(run.own_stream_us), joined = lab::median_or_nan(run.joined_us);
  const double host = lab::median_or_nan(run.host_us);
  const auto agrees = [host](double pair) { return std::fabs(host - pair) <= std::max(50.0, 0.25 * host); };
  const double unordered = lab::median_or_nan(run.other_stream_us);
  const char* ordered = "the other stream's pair, fork and join, agrees with the host timer";
  return {lab::correctness_check("wrong_stream_result", "c = a + b correct after the wrong-stream loop",
                                 run.result.passed(), run.result.detail()),
          lab::timing_check("own_pair_vs_host", "the pair on the work's stream agrees with the host timer", agrees(own),
                            lab::format("%.1f us against %.1f us", own, host))
              .with("own_stream_us", own)
              .with("host_us", host),
          // Judged only where this run can tell an ordered stop from an unordered one: with a short kernel the
          // unordered pair of the same run agrees with the host timer too, and so would a broken join.
          agrees(unordered)
              ? lab::named_observation("ordered_pair_vs_host.too_short", ordered,
                                       lab::format("not judged: the unordered pair, %.1f us, agrees too", unordered))
              : lab::timing_check("ordered_pair_vs_host", ordered, agrees(joined),
                                  lab::format("%.1f us against %.1f us", joined, host))
                    .with("joined_us", joined)};
}

}  // namespace ch03
