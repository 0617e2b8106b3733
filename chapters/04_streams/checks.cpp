#include "checks.hpp"

#include <algorithm>
#include <cmath>

#include "tables.hpp"
#include "vocabulary.hpp"

namespace ch04 {

// --- shared with the lesson, the tables and the tests -----------------------------

bool normalisation_passed(const NormalizeCheck& c) {
  return c.elements.passed() && std::fabs(c.sum - 1.0) <= kNormalizeTolerance;
}

std::string normalisation_detail(const NormalizeCheck& c) {
  return c.elements.detail() + lab::format("; largest relative error %.2e; sum of the result %.7f (tolerance %.2e)",
                                           c.max_relative_error, c.sum, kNormalizeTolerance);
}

bool all_arrays_correct(const ArraysRun& run) {
  return !run.results.empty() && std::all_of(run.results.begin(), run.results.end(), normalisation_passed);
}

bool serialised(const DefaultStreamRun& run) {
  return run.begin_ms[1] >= run.end_ms[0] && run.begin_ms[2] >= run.end_ms[1];
}

bool concurrent(const DefaultStreamRun& run) {
  const double latest_begin = std::max({run.begin_ms[0], run.begin_ms[1], run.begin_ms[2]});
  const double earliest_end = std::min({run.end_ms[0], run.end_ms[1], run.end_ms[2]});
  return latest_begin < earliest_end;
}

// --- shared with the tables -----------------------------------------------------

std::string why_unusable(const ArraysRecording& recording) {
  if (!recording.recorded) return recording.why_not.empty() ? "CUPTI did not record" : recording.why_not;
  if (recording.dropped > 0) return lab::format("CUPTI dropped %zu records", recording.dropped);
  return "";
}

std::string what_ran(const DefaultStreamRun& run) {
  if (serialised(run)) return "one after another";
  return concurrent(run) ? "at once" : "partly overlapped";
}

namespace {

// The correctness check of one normalised array, with the numbers it was judged on.
lab::Finding normalisation_check(const char* id, const char* name, const NormalizeCheck& c) {
  lab::Finding f = lab::correctness_check(id, name, normalisation_passed(c), normalisation_detail(c));
  return f.with("max_relative_error", c.max_relative_error).with("sum", c.sum);
}

// Correct in every run, the recorded ones included.
lab::Finding arrays_correct(const StreamsComparison& run) {
  int runs = 0, wrong = 0;
  std::string first_wrong;
  for (const std::vector<ArraysRun>* list : {&run.one, &run.lots}) {
    for (const ArraysRun& r : *list) {
      ++runs;
      if (all_arrays_correct(r)) continue;
      ++wrong;
      const auto bad =
          std::find_if(r.results.begin(), r.results.end(), [](auto& c) { return !normalisation_passed(c); });
      if (first_wrong.empty())
        first_wrong = bad == r.results.end() ? "no array was checked" : normalisation_detail(*bad);
    }
  }
  for (const ArraysRecording* recording : {&run.one_recorded, &run.lots_recorded}) {
    if (!recording->recorded) continue;
    ++runs;
    wrong += recording->all_correct ? 0 : 1;
    if (!recording->all_correct && first_wrong.empty()) first_wrong = "a recorded run was wrong";
  }
  return lab::correctness_check("arrays_correct",
                                "every array normalised correctly in every run (1 and " + streams_name(run.many) + ")",
                                runs > 0 && wrong == 0,
                                lab::format("%d of %d runs had a wrong array", wrong, runs) +
                                    (first_wrong.empty() ? "" : "; first: " + first_wrong))
      .with("runs_count", runs)
      .with("wrong_count", wrong);
}

}  // namespace

// --- 1. The normalisation ------------------------------------------------------

std::vector<lab::Finding> first_checks(const FirstRun& run) {
  return {normalisation_check("normalisation_correct",
                              "the normalisation matches the CPU reference (array 0, one stream)", run.result)};
}

// --- 2. One stream against many ------------------------------------------------

std::vector<lab::Finding> streams_checks(const StreamsComparison& run) {
  for (const ArraysRecording* recording : {&run.one_recorded, &run.lots_recorded}) {
    const std::string why = why_unusable(*recording);
    if (!why.empty())
      return {arrays_correct(run),
              lab::skipped("recorded", "CUPTI's record of " + streams_name(recording->streams), why)};
  }
  return {arrays_correct(run)};
}

// --- 3. The default stream -----------------------------------------------------

std::vector<lab::Finding> default_stream_checks(const DefaultStreamCases& cases) {
  std::string short_ones;
  int short_count = 0;
  for (const DefaultStreamRun* run : {&cases.legacy, &cases.non_blocking, &cases.per_thread, &cases.legacy_by_name}) {
    if (run->all_ran) continue;
    short_ones += (short_ones.empty() ? "" : "; ") + case_name(*run);
    ++short_count;
  }
  const std::string ran = short_ones.empty()
                              ? lab::format("all twelve kernels spun for at least %.1f ms", cases.legacy.spin_ms)
                              : "too short in: " + short_ones;
  // A documented guarantee, but seen through %globaltimer stamps: a tool that serialises kernels decides it too.
  const std::string legacy = lab::format(
      "stream 0 of the legacy build: %s (wall %.3f ms); cudaStreamLegacy in the per-thread build: %s (wall %.3f ms)",
      what_ran(cases.legacy).c_str(), cases.legacy.wall_ms, what_ran(cases.legacy_by_name).c_str(),
      cases.legacy_by_name.wall_ms);
  return {
      lab::correctness_check("spins_ran", "every spin kernel ran its full length", short_count == 0, ran)
          .with("short_cases_count", short_count)
          .with("spin_ms", cases.legacy.spin_ms),
      lab::timing_check("legacy_serialised", "the legacy default stream serialised with blocking streams (both builds)",
                        serialised(cases.legacy) && serialised(cases.legacy_by_name), legacy)
          .with("legacy_wall_ms", cases.legacy.wall_ms)
          .with("legacy_by_name_wall_ms", cases.legacy_by_name.wall_ms)};
}

// --- 4. A race between two streams ----------------------------------------------

std::vector<lab::Finding> race_checks(const RaceRun& run) {
  return {lab::correctness_check(
              "fix_correct", "the consumer that waits on the producer's event is always correct",
              run.runs > 0 && run.fixed_wrong == 0,
              lab::format("wrong in %d of %d runs; last run: ", run.fixed_wrong, run.runs) + run.fixed_last.detail())
              .with("wrong_runs_count", run.fixed_wrong)
              .with("runs_count", run.runs)};
}

// --- 5. Stream-ordered memory -----------------------------------------------------

std::vector<lab::Finding> memory_checks(const MemoryRun& run) {
  const ReuseRun& r = run.reuse;
  return {normalisation_check("cuda_malloc_correct", "normalisation correct with cudaMalloc / cudaFree",
                              run.cuda_malloc.result),
          normalisation_check("stream_ordered_correct", "normalisation correct with cudaMallocAsync / cudaFreeAsync",
                              run.stream_ordered.result),
          lab::correctness_check(
              "pool_restored", "the pool's attributes were restored after each experiment",
              run.threshold.restored && r.restored,
              std::string("release threshold ") + (run.threshold.restored ? "restored" : "NOT restored") +
                  ", cudaMemPoolReuseAllowInternalDependencies " + (r.restored ? "restored" : "NOT restored"))
              .with("threshold_restored", run.threshold.restored)
              .with("reuse_restored", r.restored)};
}

}  // namespace ch04
