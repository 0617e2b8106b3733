// Chapter 12: asynchrony inside a kernel
// ======================================
// What it shows, one numbered section of README.md each, in this order:
//   1. one staged kernel (a tile-local 3-point stencil and --work FMAs per
//      element), four ways: no staging, synchronous staging, cuda::memcpy_async
//      through a cuda::pipeline, and TMA bulk copies completed on a barrier,
//      side by side, every output checked against the CPU before and after timing;
//   2. against the limit: GB/s of every version and stage count beside chapter
//      01's device-to-device copy of the same data (8 x the L2 by default), swept
//      over occupancy (many small-tile blocks per SM down to one block whose
//      tiles fill shared memory) and over the work per element;
//   3. where each block waits: per-tile %globaltimer stamps, waiting for the
//      copy against computing;
//   4. chapter 05's pipeline model applied to the stages: predicted against measured.
// The lesson is staging.cu (the kernel's direct, sync_staged and pipeline
// versions), tma.cu (the tma version) and experiments.cu (what runs them);
// tables.hpp and checks_*.hpp turn the data into the tables and checks printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch12_async_copies
//   build/release/chapters/12_async_copies/ch12_async_copies [--mib 0] [--json out.json]
#include "chapter.cuh"
#include "checks_bandwidth.hpp"
#include "checks_stages.hpp"
#include "checks_versions.hpp"
#include "experiments.cuh"
#include "options.hpp"
#include "program.hpp"
#include "tables.hpp"

constexpr char kProgram[] = "ch12_async_copies";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch12::Options o;
    lab::Chapter chapter(
        kProgram, "Chapter 12: asynchrony inside a kernel",
        "Stages tiles through shared memory four ways (none, synchronous, cuda::pipeline, TMA),\n"
        "against the device-to-device copy, over stages, work and occupancy; where blocks wait; a model.");
    ch12::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    chapter.require_memory(ch12::memory_need(o, device.l2_bytes));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    const auto reps = static_cast<int>(o.reps);
    const auto work = static_cast<int>(o.work);
    ch12::Bench bench(ch12::buffer_floats(o, device.l2_bytes), static_cast<std::uint64_t>(o.seed),
                      ch12::small_tile_floats(o), device);
    ch12::Bench small(ch12::kSmallCheckFloats, static_cast<std::uint64_t>(o.seed) + 1, ch12::small_tile_floats(o),
                      device);
    if (o.no_pipeline)
      for (ch12::Bench* b : {&bench, &small}) b->leave_out(ch12::Version::pipeline, "left out (--no-pipeline)");

    report.section("1. One staged kernel, four ways");
    const ch12::Sweep versions = ch12::run_side_by_side(bench, small, work, reps);
    report.add(ch12::sweep_table(
        "versions", "The staged kernel four ways, at many small blocks and at one full block per SM", versions));
    report.add(ch12::versions_checks(versions));

    report.section("2. Against the copy: stages, occupancy and work");
    const ch12::Sweep stages = ch12::run_stage_sweep(bench, work, reps);
    report.add(ch12::copy_table(stages));
    report.add(ch12::sweep_table("stage_sweep", "Every version and stage count at each occupancy point", stages));
    report.add(ch12::stage_sweep_checks(stages));
    const ch12::Sweep works = ch12::run_work_sweep(bench, ch12::work_values(o), reps);
    report.add(ch12::sweep_table("work_sweep", "Every version over the work per element", works));
    report.add(ch12::work_sweep_checks(works));

    report.section("3. Where each block waits");
    const ch12::StampsRun stamps = ch12::run_stamps(bench, work, ch12::copy_gbps(stages));
    report.add(ch12::stamps_table(stamps));
    report.add(ch12::stamps_checks(stamps));

    report.section("4. A model of the stages");
    const std::vector<ch12::ModelRow> model = ch12::model_rows(stamps, stages);
    report.add(ch12::model_table(model));

    return chapter.finish();
  });
}
