// Chapter 07: cache and clock effects
// ===================================
// What it shows, one numbered section of README.md each, in this order:
//   1. warm and cold L2: y = 2x over a working set that fits in L2 and one
//      several times the L2, with nothing, a spin kernel, a write flush or a read
//      flush before each sample, each as a lone launch and behind a blocked
//      stream: the flush's two effects (a cold cache, a hidden launch gap)
//      measured apart, and the write flush against the read flush;
//   2. the SM clock measured inside kernels (clock64 over %globaltimer) at idle,
//      under a heavy load (tensor cores on every SM beside a copy) and after,
//      beside NVML's clock and power; the method's own error; clock locking
//      explained, never done;
//   3. many samples of one kernel: statistics, outliers, a histogram, and how
//      precisely the median is known (a bootstrap interval) as samples grow.
// The lesson is cache_clock.cu (one experiment per section); tables.hpp and
// checks.hpp turn its data into the tables and checks printed here. Why: README.md.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch07_cache_and_clock
//   build/release/chapters/07_cache_and_clock/ch07_cache_and_clock [--samples 50] [--load-ms 3000] [--json out.json]
#include "cache_clock.cuh"
#include "chapter.cuh"
#include "checks.hpp"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch07_cache_and_clock";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch07::Options o;
    lab::Chapter chapter(kProgram, "Chapter 07: cache and clock effects",
                         "Warm vs cold L2 and what an L2 flush really changes, the SM clock measured in\n"
                         "kernels at idle, under load and after, and the statistics of many samples.");
    ch07::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    chapter.require_memory(ch07::memory_need(o, device.l2_bytes));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;

    report.section("1. Warm and cold L2, and the flush's two effects");
    const ch07::CacheRun cache = ch07::compare_cache(o, device, stream);
    report.add(ch07::working_set_table(cache.small));
    report.add(ch07::effects_table(cache.small));
    report.add(ch07::working_set_table(cache.large));
    report.add(ch07::effects_table(cache.large));
    report.add(ch07::cache_checks(cache));

    report.section("2. The SM clock at idle, under load and after");
    const ch07::ClockRun clock = ch07::measure_clock(device, static_cast<int>(o.probes), o.load_ms, stream);
    report.add(ch07::clock_table(clock));
    report.add(ch07::clock_error_table(clock));
    report.add(ch07::clock_checks(clock));

    report.section("3. Many samples");
    const ch07::SamplesRun samples = ch07::sample_many(static_cast<int>(o.stat_samples), static_cast<int>(o.load_steps),
                                                       device.nominal_sm_clock_mhz, stream);
    report.add(ch07::samples_table(samples));
    report.add(ch07::histogram_table(samples));
    report.add(ch07::precision_table(samples));
    report.add(ch07::samples_checks(samples));

    return chapter.finish();
  });
}
