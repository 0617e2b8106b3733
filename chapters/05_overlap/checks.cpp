#include "checks.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "tables.hpp"
#include "vocabulary.hpp"

namespace ch05 {

namespace {

double median_of(const ScheduleRow& row) { return lab::median_or_nan(row.samples_ms); }

// A check that every one of @p count items was right: @p wrong names the first that was not ("" when none);
// @p counted says what was checked.
lab::Finding all_correct(const char* id, const char* name, const std::string& wrong, std::size_t count,
                         const std::string& counted, const char* count_key) {
  return lab::correctness_check(id, name, wrong.empty() && count > 0, wrong.empty() ? counted : wrong)
      .with(count_key, count);
}

}  // namespace

double median_ms(const SweepRun& sweep, const std::string& kernel, Schedule schedule, int chunks) {
  for (const ScheduleRow& row : sweep.rows)
    if (row.kernel == kernel && row.schedule == schedule && row.chunks == chunks) return median_of(row);
  return std::nan("");
}

bool model_held(double measured_lengths, int model_lengths) {
  return std::fabs(measured_lengths - model_lengths) <= 0.5;
}

// --- 2. the sweep --------------------------------------------------------------------

std::vector<lab::Finding> sweep_checks(const SweepRun& sweep) {
  const auto wrong = std::find_if(sweep.rows.begin(), sweep.rows.end(), [](auto& r) { return !r.result.passed(); });
  std::vector<lab::Finding> findings = {all_correct(
      "schedules_correct", "every schedule, chunk count and kernel gave the right result",
      wrong == sweep.rows.end() ? "" : row_name(*wrong) + ": " + wrong->result.detail(), sweep.rows.size(),
      lab::count_text(sweep.rows.size(), "row", "rows") + ", each against the CPU reference", "rows_count")};
  const double seq = median_ms(sweep, "heavy", Schedule::sequential, 1);
  if (std::isnan(seq)) return findings;
  const ScheduleRow* best = nullptr;
  for (const ScheduleRow& row : sweep.rows)
    if (row.kernel == "heavy" && (best == nullptr || median_of(row) < median_of(*best))) best = &row;
  const double top = median_of(*best);
  findings.push_back(
      lab::timing_check("overlap_heavy", "overlap saves >= 10 % when the kernel is as long as the copies",
                        top < 0.9 * seq,
                        lab::format("the fastest median, %s, %.3f ms, against %.3f ms sequential: %.2fx its time "
                                    "(asked: under 0.9x)",
                                    row_name(*best).c_str(), top, seq, top / seq))
          .with("best_ms", top)
          .with("sequential_ms", seq));
  return findings;
}

// --- 3. the hardware's work queues ----------------------------------------------------

std::vector<lab::Finding> queue_checks(const QueueRun& run) {
  if (!run.skipped.empty()) return {lab::skipped("queues", "work queues", run.skipped)};
  std::vector<lab::Finding> findings;
  std::string wrong;
  std::size_t measured = 0;
  for (const QueueChild& child : run.children) {
    if (!child.measured()) {
      findings.push_back(lab::skipped("child_" + (child.asked.empty() ? std::string("default") : child.asked),
                                      "connections " + connections_label(child.asked), child.why_not));
      continue;
    }
    measured += 1;
    for (const QueueSchedules& s : child.schedules)
      if (!s.correct && wrong.empty())
        wrong = "wrong result at connections " + connections_label(child.seen) + ", " + std::to_string(s.chunks) +
                " chunks";
  }
  if (measured == 0) return findings;
  findings.push_back(all_correct("queue_children_correct", "V1 and V2 correct in every child process", wrong, measured,
                                 lab::count_text(measured, "child process", "child processes"), "children_count"));
  return findings;
}

// --- 4. the schedules as CUPTI recorded them -------------------------------------------

std::vector<lab::Finding> recorded_checks(const std::vector<RecordedSchedule>& runs) {
  const auto wrong = std::find_if(runs.begin(), runs.end(), [](auto& r) { return !r.result.passed(); });
  std::vector<lab::Finding> findings = {
      all_correct("recorded_correct", "recorded runs correct",
                  wrong == runs.end() ? "" : recorded_name(*wrong) + ": " + wrong->result.detail(), runs.size(),
                  lab::count_text(runs.size(), "run", "runs"), "runs_count")};
  for (const RecordedSchedule& run : runs) {  // a run recorded is in recorded_table; one that was not, says why
    std::string id = std::string("recorded_") + schedule_name(run.schedule);  // recorded_sequential, _v1, _v2
    std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!run.recorded) findings.push_back(lab::skipped(id, "recorded " + recorded_name(run), run.why_not));
  }
  return findings;
}

}  // namespace ch05
