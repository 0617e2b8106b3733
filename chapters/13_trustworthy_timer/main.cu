// Chapter 13: a timer you can trust
// =================================
// What it shows, one numbered section of README.md each, in this order:
//   1. a gallery of ten timed workloads whose truth CUPTI records: four honest
//      (a ~3 us kernel with the L2 flushed, a 1 ms kernel, a first launch, a
//      kernel on inputs in L2) and six adversaries (work on a side stream joined
//      late, an output copied late on another stream, a cached result, CPU work
//      in the call, work on the workload's own stream, work left queued on a
//      stream no one is told of); each timed by a naive event pair on the
//      caller's stream, beside what CUPTI saw of the same calls;
//   2. the reference harness: a held stream, every declared stream forked and
//      joined inside the window, fresh inputs and a poisoned output read at the
//      stop event, every declared stream queried; it reads each honest workload
//      against CUPTI and measures or refuses each adversary;
//   3. a short kernel's two quantities: its lone duration, and its cost per
//      kernel in a sequence of K on a held stream and in a CUDA graph of K;
//   with --timeline / --trace, one more call of the side-stream and late-copy
//   adversaries, recorded by CUPTI (cheats_timeline.cu, docs/timeline.md).
// The workloads are gallery.cu (one call each, the CUDA written out), the
// timers harness.cu; they return the data of data.hpp, which tables.hpp and
// checks.hpp turn into the tables and checks printed here; options.hpp declares the options and the memory they need.
// What the documentation states, and why each timer reads what it reads, is on
// the page (README.md).
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch13_trustworthy_timer
//   build/release/chapters/13_trustworthy_timer/ch13_trustworthy_timer [--samples 20] [--json out.json]
//       [--timeline] [--trace ch13.trace.json]
#include "chapter.cuh"
#include "cheats_timeline.cuh"
#include "checks.hpp"
#include "gallery.cuh"
#include "harness.cuh"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch13_trustworthy_timer";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch13::Options o;
    lab::Chapter chapter(kProgram, "Chapter 13: a timer you can trust",
                         "Times a gallery of honest and cheating workloads with a naive event pair and with a\n"
                         "reference harness, each beside CUPTI's record of what really ran.");
    ch13::add_options(chapter.options(), o);
    chapter.add_timeline_options();  // --timeline / --trace: one more call of two cheats, by CUPTI
    if (!chapter.start(argc, argv)) return lab::exit_code::success;  // --help was printed
    const lab::DeviceInfo& device = chapter.device();
    chapter.require_memory(ch13::memory_need(o, device.l2_bytes));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream caller(cudaStreamNonBlocking);  // the caller's stream, handed to every callable
    ch13::Gallery gallery(o.sizes, device);
    const int samples = static_cast<int>(o.samples);
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. The gallery, read by a naive event pair");
    ch13::GalleryRun run = ch13::time_naive(gallery, samples, seed, caller);
    report.add(ch13::naive_table(run));
    report.add(ch13::naive_checks(run));

    report.section("2. The reference harness");
    ch13::time_reference(gallery, samples, seed, caller, run);
    report.add(ch13::reference_table(run));
    report.add(ch13::reference_checks(run));

    report.section("3. A short kernel: alone, and in a sequence");
    const ch13::SequenceRun sequence =
        ch13::time_sequence(gallery, run, static_cast<int>(o.sequence), samples, seed, caller);
    report.add(ch13::sequence_table(sequence));
    report.add(ch13::sequence_checks(sequence));
    ch13::record_cheats(gallery, seed, caller, chapter.timeline());  // --timeline / --trace: by CUPTI

    return chapter.finish();
  });
}
