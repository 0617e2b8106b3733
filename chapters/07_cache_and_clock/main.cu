// Chapter 07: cache and clock effects
// ===================================
// What it shows
//   - warm vs cold L2: a kernel (y = 2x) whose working set fits in L2 and one
//     several times the L2, timed with nothing before each sample (warm) and
//     with an L2 flush before each sample (cold), for two flushes: nvbench's
//     memset (leaves dirty lines) and a read kernel (leaves clean lines);
//   - the flush's two effects, separated: it cools the cache AND keeps the GPU
//     busy, which hides the launch gap. A spin kernel (busy, cache untouched) and
//     chapter 03's blocked stream (no launch gap at all) measure each alone;
//   - the SM clock measured inside kernels (clock64 over %globaltimer): at idle,
//     during a sustained load, after it; samples under 75 % of the nominal clock
//     flagged (nvbench's rule); clock locking explained, never done;
//   - many samples of one kernel: a text histogram, min / median / mean, outliers,
//     the coefficient of variation, how many samples a stable median needs, the
//     clock beside each sample, and the recipe common/'s lab::measure_ms follows.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch07_cache_and_clock
//   build/release/chapters/07_cache_and_clock/ch07_cache_and_clock [--samples 50] [--load-ms 2000] [--json out.json]
//
// Shape (every chapter): CPU reference -> lesson functions (cache_clock.cuh,
// sample_statistics.hpp) -> the experiment, variants side by side -> a table -> computed verdicts.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cache_clock.cuh"
#include "chapter.cuh"
#include "nvml.cuh"
#include "clock.cuh"
#include "memory_fit.hpp"
#include "program.hpp"
#include "sample_statistics.hpp"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

constexpr char kProgram[] = "ch07_cache_and_clock";

struct Settings {
  std::int64_t small_mib = 0;     // working set that fits in L2; 0: half the L2
  std::int64_t large_factor = 8;  // the large working set, in L2 sizes
  std::int64_t samples = 50;      // samples per cache case
  double spin_ms = 0.05;          // the spin kernel: about as long as a flush of 2 x 50 MiB
  std::int64_t stat_samples = 200;
  std::int64_t load_steps = 100000;  // FMAs per thread of the clocked load: about 0.5 ms on an H100
  double load_ms = 2000;             // the sustained load
  std::int64_t seed = 1;
};

std::string us(double milliseconds) { return lab::fixed(1000 * milliseconds, 2); }
std::string mib_text(std::size_t bytes) { return lab::fixed(static_cast<double>(bytes) / (1 << 20), 1) + " MiB"; }

struct CacheRow {
  ch07::Preceding preceding;
  lab::SampleMode mode;
  lab::Summary summary;
  bool correct;
};

// The median of one row of a working set's table.
double median_of(const std::vector<CacheRow>& rows, ch07::Preceding p, lab::SampleMode m) {
  for (const CacheRow& r : rows)
    if (r.preceding == p && r.mode == m) return r.summary.median;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 07: cache and clock effects",
                         "Warm vs cold L2 and what an L2 flush really changes, the SM clock measured in\n"
                         "kernels at idle, under load and after, and the statistics of many samples.");
    chapter.options()
        .add("small-mib", &s.small_mib, 0, std::int64_t{1} << 20, "working set that fits in L2, in MiB (0: half the L2)")
        .add("large-factor", &s.large_factor, 2, 64, "the large working set, in multiples of the L2 size")
        .add("samples", &s.samples, 3, 100000, "samples per cache case")
        .add("spin-ms", &s.spin_ms, 0.001, 100.0, "how long the spin kernel before a sample keeps the GPU busy")
        .add("stat-samples", &s.stat_samples, 10, 1000000, "samples of the clocked kernel for the statistics")
        .add("load-steps", &s.load_steps, 1, 100000000, "FMAs per thread of the clocked kernel")
        .add("load-ms", &s.load_ms, 1.0, 600000.0, "length of the sustained load")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed");
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    // Before any work of this chapter: the idle clock, in a kernel and from NVML.
    const double idle_mhz = lab::measure_sm_clock_mhz(stream);
    const lab::NvmlReading idle_nvml = lab::read_nvml(device.ordinal);
    chapter.measure_sm_clock();

    const std::size_t small = s.small_mib > 0 ? static_cast<std::size_t>(s.small_mib) << 20 : device.l2_bytes / 2;
    const std::size_t large = static_cast<std::size_t>(s.large_factor) * device.l2_bytes;
    if (auto problem = lab::check_memory_fits(
            "--large-factor " + std::to_string(s.large_factor),
            {static_cast<double>(small + large + 4 * device.l2_bytes), "both working sets and two flush buffers of 2 x L2",
             static_cast<double>(small + large), "the inputs and the CPU references"},
            device.free_memory_bytes, lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    const int samples = static_cast<int>(s.samples);

    // --- 1. warm vs cold, and the flush's two effects ---------------------------------------
    ch07::PrecedingWork preceding(s.spin_ms);
    const ch07::Preceding kinds[] = {ch07::Preceding::nothing, ch07::Preceding::spin, ch07::Preceding::write_flush,
                                     ch07::Preceding::read_flush};
    const lab::SampleMode modes[] = {lab::SampleMode::isolated, lab::SampleMode::blocked_stream};
    std::printf(
        "1. y = 2x timed %d times per row (events), with different work queued before each sample.\n"
        "   isolated: a lone launch into an idle GPU (includes the launch gap unless something precedes it);\n"
        "   blocked stream: the sample is queued behind a held stream (chapter 03), so no launch gap at all.\n"
        "   spin kernel: %.3f ms of GPU time that touches no memory; the flushes reset persisting L2 lines\n"
        "   and touch 2 x L2 = %s (write: cudaMemsetAsync, as nvbench; read: a kernel that only reads).\n",
        samples, s.spin_ms, mib_text(2 * device.l2_bytes).c_str());
    bool all_correct = true;
    struct WorkingSet {
      const char* name;
      std::size_t bytes;
      std::vector<CacheRow> rows;
    };
    WorkingSet sets[] = {{small <= device.l2_bytes ? "fits in L2" : "larger than the L2 (--small-mib)", small, {}},
                         {"several times the L2", large, {}}};
    for (WorkingSet& set : sets) {
      ch07::ScaleProblem problem(set.bytes, static_cast<std::uint64_t>(s.seed));
      for (ch07::Preceding p : kinds) {
        for (lab::SampleMode m : modes) {
          lab::Comparison check;
          const std::vector<double> t = ch07::time_kernel(problem, preceding, p, m, samples, stream, &check);
          const lab::Summary sum = report.add_result(
              std::string(set.name) + ", " + ch07::preceding_name(p) + ", " + lab::sample_mode_name(m), "ms", t,
              {{"working_set_bytes", static_cast<double>(set.bytes)}});
          set.rows.push_back({p, m, sum, check.passed()});
          all_correct = all_correct && check.passed();
          if (!check.passed()) std::printf("   WRONG: %s\n", check.detail().c_str());
        }
      }
      const double warm_blocked = median_of(set.rows, ch07::Preceding::nothing, lab::SampleMode::blocked_stream);
      std::printf("\n   working set %s: x and y, each read or written once per run (%s; the L2 holds %s)\n",
                  mib_text(set.bytes).c_str(), set.name, mib_text(device.l2_bytes).c_str());
      lab::Table table({{"before each sample", "", false},
                        {"samples", "", false},
                        {"min", "us"},
                        {"median", "us"},
                        {"max", "us"},
                        {"vs warm, blocked", ""},
                        {"GB/s", ""},
                        {"result", "", false}});
      for (const CacheRow& r : set.rows) {
        table.add_row({ch07::preceding_name(r.preceding), lab::sample_mode_name(r.mode), us(r.summary.min),
                       us(r.summary.median), us(r.summary.max), lab::fixed(r.summary.median / warm_blocked, 2) + "x",
                       lab::fixed(lab::gigabytes_per_second(static_cast<double>(set.bytes), r.summary.median), 0),
                       r.correct ? "correct" : "WRONG"});
      }
      std::printf("%s", table.render().c_str());
      using P = ch07::Preceding;
      using M = lab::SampleMode;
      auto m = [&](P p, M mode) { return median_of(set.rows, p, mode); };
      const double gap = m(P::nothing, M::isolated) - m(P::nothing, M::blocked_stream);
      const double hidden_by_spin = m(P::nothing, M::isolated) - m(P::spin, M::isolated);
      const double cooling_write = m(P::write_flush, M::blocked_stream) - m(P::nothing, M::blocked_stream);
      const double cooling_read = m(P::read_flush, M::blocked_stream) - m(P::nothing, M::blocked_stream);
      const double article = m(P::write_flush, M::isolated) - m(P::nothing, M::isolated);
      std::printf(
          "   launch gap in a lone launch (nothing: isolated - blocked)        %+8.2f us\n"
          "   hidden by a busy GPU alone (nothing - spin kernel, isolated)     %+8.2f us\n"
          "   cooling alone, write flush (write flush - nothing, blocked)      %+8.2f us\n"
          "   cooling alone, read flush (read flush - nothing, blocked)        %+8.2f us\n"
          "   the article's comparison (write flush - nothing, isolated)       %+8.2f us\n",
          1000 * gap, 1000 * hidden_by_spin, 1000 * cooling_write, 1000 * cooling_read, 1000 * article);
      const double warm = m(P::nothing, M::blocked_stream);
      const bool cools = cooling_write > 0.1 * warm;
      std::printf(
          "   -> %s: the flush %s (cold / warm = %.2fx write flush, %.2fx read flush, blocked stream).\n"
          "      Placed before a lone launch, the flush made the kernel look %s (%+.2f us): %s.\n",
          set.name, cools ? "cools the cache, and the kernel pays for it" : "changes little: the data never fits in L2 anyway",
          m(P::write_flush, M::blocked_stream) / warm, m(P::read_flush, M::blocked_stream) / warm,
          article < 0 ? "FASTER" : "slower", 1000 * article,
          article < 0 ? "hiding the launch gap outweighed cooling the cache"
                      : "cooling the cache outweighed hiding the launch gap");
      report.add_result(std::string(set.name) + ": cold / warm (write flush, blocked stream)", "x",
                        {m(P::write_flush, M::blocked_stream) / warm},
                        {{"read_flush_ratio", m(P::read_flush, M::blocked_stream) / warm}, {"launch_gap_us", 1000 * gap}, {"hidden_by_spin_us", 1000 * hidden_by_spin}, {"cooling_write_us", 1000 * cooling_write}, {"cooling_read_us", 1000 * cooling_read}, {"article_difference_us", 1000 * article}});
    }
    std::printf(
        "\n   Why: a working set that fits in L2 is served from L2 when warm and from memory (HBM) after a flush;\n"
        "   one several times the L2 comes from memory either way, because each run evicts its own start\n"
        "   before it ends. So the flush cools only a working set that fits in L2; for every working set it also\n"
        "   hides the launch gap of a lone launch. The blocked stream shows each effect alone.\n\n");
    report.check("y = 2x correct in every case", all_correct, "16 cases, poisoned output, exact comparison");

    // --- 2. the SM clock --------------------------------------------------------------------
    ch07::ClockedLoad load(4 * device.sm_count, static_cast<int>(s.load_steps));
    const std::vector<ch07::ClockedLoad::Sample> sustained = load.sustain(s.load_ms, stream);
    const lab::NvmlReading loaded_nvml = lab::read_nvml(device.ordinal);
    const double after_mhz = lab::measure_sm_clock_mhz(stream);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    // After a second with nothing running: what the driver reports before any
    // kernel wakes the GPU, then the first 50 us of a kernel, then 2 ms.
    const lab::NvmlReading rested_nvml = lab::read_nvml(device.ordinal);
    const double waking_mhz = lab::measure_sm_clock_mhz(stream, 0.05);
    const double rested_mhz = lab::measure_sm_clock_mhz(stream);
    std::vector<double> during;
    for (const auto& x : sustained) during.push_back(x.clock_mhz);
    const ch07::ClockVerdict verdict = ch07::judge_clock(during, device.nominal_sm_clock_mhz);
    const std::size_t tenth = std::max<std::size_t>(1, during.size() / 10);
    const double first_tenth =
        lab::summarize(std::vector<double>(during.begin(), during.begin() + static_cast<std::ptrdiff_t>(tenth))).median;
    const double last_tenth =
        lab::summarize(std::vector<double>(during.end() - static_cast<std::ptrdiff_t>(tenth), during.end())).median;
    auto nvml_text = [](const lab::NvmlReading& r) {
      return r.sm_clock_mhz > 0 ? lab::fixed(r.sm_clock_mhz, 0) + " MHz" : std::string("not available");
    };
    std::printf(
        "2. The SM clock, measured inside kernels (SM cycles / %%globaltimer ns); nominal %.0f MHz\n"
        "   idle, before this chapter's work   %7.0f MHz   (NVML: %s)\n"
        "   during %.0f ms of load, %zu kernels  min %.0f / median %.0f / max %.0f MHz; first tenth %.0f, last tenth %.0f\n"
        "                                                 (NVML right after: %s)\n"
        "   right after the load               %7.0f MHz\n"
        "   after 1 s idle: NVML before any kernel %s; in a kernel's first 50 us %.0f MHz, over 2 ms %.0f MHz\n",
        device.nominal_sm_clock_mhz, idle_mhz, nvml_text(idle_nvml).c_str(), s.load_ms, during.size(), verdict.min_mhz,
        verdict.median_mhz, verdict.max_mhz, first_tenth, last_tenth, nvml_text(loaded_nvml).c_str(), after_mhz,
        nvml_text(rested_nvml).c_str(), waking_mhz, rested_mhz);
    std::vector<double> all_readings = during;
    all_readings.push_back(idle_mhz);
    all_readings.push_back(after_mhz);
    all_readings.push_back(waking_mhz);
    all_readings.push_back(rested_mhz);
    const ch07::ClockVerdict overall = ch07::judge_clock(all_readings, device.nominal_sm_clock_mhz);
    if (!overall.varied) {
      std::printf(
          "   -> no variation inside kernels: every reading within 1 %% (%.0f-%.0f MHz). Whenever a kernel ran, this\n"
          "      GPU ran at one clock, at idle, under load and after; its timings are not disturbed by clock changes.\n",
          overall.min_mhz, overall.max_mhz);
      if (rested_nvml.sm_clock_mhz > 0 && rested_nvml.sm_clock_mhz < 0.75 * overall.min_mhz) {
        std::printf(
            "      With nothing running the driver reported %.0f MHz: the clock drops when the GPU idles and is back\n"
            "      up before a kernel's first 50 us are over; only a reading taken inside a kernel tells the clock\n"
            "      your work ran at.\n",
            rested_nvml.sm_clock_mhz);
      }
    } else {
      std::printf("   -> the clock varied: %.0f-%.0f MHz (%.1f %% of the median); %zu reading(s) under 75 %% of nominal.\n",
                  overall.min_mhz, overall.max_mhz, 100 * (overall.max_mhz - overall.min_mhz) / overall.median_mhz,
                  overall.below);
    }
    std::printf(
        "   Clock locking (not done here): `nvidia-smi -lgc <min>,<max>` pins the SM clock range and\n"
        "   `nvidia-smi -rgc` resets it. Both need root and change the GPU for every user and process on it, so\n"
        "   a shared machine must not do it; this chapter measures the clock instead and flags samples taken\n"
        "   below 75 %% of nominal, as nvbench does.\n\n");
    report.add_result("SM clock during the sustained load", "MHz", during,
                      {{"idle_mhz", idle_mhz}, {"after_mhz", after_mhz}, {"rested_mhz", rested_mhz}, {"waking_50us_mhz", waking_mhz}, {"nvml_rested_mhz", rested_nvml.sm_clock_mhz}, {"nominal_mhz", device.nominal_sm_clock_mhz}, {"nvml_idle_mhz", idle_nvml.sm_clock_mhz}, {"nvml_loaded_mhz", loaded_nvml.sm_clock_mhz}, {"varied", overall.varied}, {"below_75_percent", static_cast<double>(overall.below)}});
    report.check("the clocked load computed what the CPU computes", load.correct(),
                 std::to_string(s.load_steps) + " FMAs per thread, exact");

    // --- 3. many samples -----------------------------------------------------------------------
    const std::vector<ch07::ClockedLoad::Sample> runs = load.run(static_cast<int>(s.stat_samples), stream);
    std::vector<double> times, clocks;
    for (const auto& r : runs) {
      times.push_back(r.ms);
      clocks.push_back(r.clock_mhz);
    }
    const lab::Summary t = lab::summarize(times);
    const ch07::Outliers outliers = ch07::tukey_outliers(times);
    const ch07::ClockVerdict sample_clock = ch07::judge_clock(clocks, device.nominal_sm_clock_mhz);
    std::printf("3. %zu lone launches of the clocked kernel (%lld FMAs per thread), event times:\n%s", times.size(),
                static_cast<long long>(s.load_steps), ch07::render_histogram(ch07::histogram(times, 12), "ms").c_str());
    std::printf(
        "   min %.4f  median %.4f  mean %.4f  max %.4f ms; stddev %.4f ms, coefficient of variation %.2f %%\n"
        "   outliers (Tukey, beyond 1.5 IQR): %zu below %.4f, %zu above %.4f ms%s\n",
        t.min, t.median, t.mean, t.max, t.stddev, 100 * t.cv, outliers.below, outliers.low_fence, outliers.above,
        outliers.high_fence, outliers.above > 0 ? ": they pull the mean up, not the median" : "");
    for (double tolerance : {0.01, 0.001}) {
      const std::size_t n = ch07::samples_for_stable_median(times, tolerance);
      if (n > 0) {
        std::printf("   samples for a median within %.1f %% of the median of all %zu: %zu\n", 100 * tolerance, times.size(), n);
      } else {
        std::printf("   samples for a median within %.1f %%: more than half of the %zu taken; take more\n", 100 * tolerance,
                    times.size());
      }
      report.add_result("samples for a stable median within " + lab::fixed(100 * tolerance, 1) + " %", "samples",
                        {static_cast<double>(n)});
    }
    std::printf("   the clock beside the first samples (all of them are in the JSON):\n");
    const std::size_t shown = std::min<std::size_t>(8, runs.size());
    for (std::size_t i = 0; i < shown; ++i)
      std::printf("%s%.4f ms @ %.0f MHz%s", i % 4 == 0 ? "     " : "; ", runs[i].ms, runs[i].clock_mhz,
                  i % 4 == 3 || i + 1 == shown ? "\n" : "");
    std::printf(
        "   in-kernel clock over all samples: %.0f-%.0f MHz; %zu sample(s) taken below 75 %% of nominal %s\n"
        "   The recipe (what lab::measure_ms does, docs/measuring.md): warm up first; take many samples with\n"
        "   events; say whether L2 was warm or flushed, and block the stream when the launch gap must not count;\n"
        "   report the median with min/max or quartiles and the sample count; record the SM clock; compare\n"
        "   variants in the same run.\n",
        sample_clock.min_mhz, sample_clock.max_mhz, sample_clock.below,
        sample_clock.below > 0 ? "(flagged: nvbench would discard them)" : "(none flagged)");
    report.add_result("clocked kernel, lone launches", "ms", times,
                      {{"clock_mhz_per_sample", clocks}, {"clock_mhz_min", sample_clock.min_mhz}, {"clock_mhz_median", sample_clock.median_mhz}, {"clock_mhz_max", sample_clock.max_mhz}, {"below_75_percent", static_cast<double>(sample_clock.below)}, {"outliers_above", static_cast<double>(outliers.above)}});
    report.check("the clocked load computed what the CPU computes, after the samples", load.correct(), "exact");
    return chapter.finish();
  });
}
