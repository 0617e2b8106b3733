// Chapter 01: kernel launch
// =========================
// What it shows, section by section (the page: chapters/01_kernel_launch/README.md)
//   1. what one launch may ask for on this GPU, beside the limits of compute
//      capability 1.x that older articles quote;
//   2. `kernel<<<grid, block, shared_bytes, stream>>>(...)` and three ways to
//      cover n elements: one thread per element, a grid-stride loop, and a
//      grid-stride loop over float4, each checked against the CPU and timed
//      beside a device-to-device copy measured in the same run;
//   3. a launch returns to the host before its kernel ends;
//   4. a launch configuration error, caught with cudaGetLastError() while the
//      program carries on.
//
// Build and run
//   cmake --preset release && cmake --build --preset release --target ch01_kernel_launch
//   build/release/chapters/01_kernel_launch/ch01_kernel_launch [--n 64Mi] [--block 256] [--json out.json]
//
// Where things are: the CPU reference, the kernels and their launch in
// add_kernels.cu (library ch01_kernels, which later chapters and the PyTorch
// extension link), the experiments in vector_add.cu and the data they return in
// data.hpp, the options in options.cpp, the checks in checks.cpp, the tables in
// tables.cpp; why each result comes out as it does is on the page;
// docs/chapter-shape.md explains the layout.
#include "chapter.cuh"
#include "checks.hpp"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"
#include "vector_add.cuh"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "ch01_kernel_launch";
  return lab::run_program(kProgram, [&] {
    ch01::Options o;
    lab::Chapter chapter(kProgram, "Chapter 01: kernel launch",
                         "Launches c = a + b three ways, verifies each against the CPU, and compares\n"
                         "their bandwidth with a device-to-device copy measured in the same run.");
    ch01::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;  // --help was printed
    // What only the machine can tell: does the block fit the GPU, does the data
    // fit in device and host memory? Refused (exit 2) before anything is allocated.
    const lab::DeviceInfo& device = chapter.device();
    ch01::require_block_fits(o, device.max_threads_per_block);
    chapter.require_memory(ch01::memory_need(o));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;

    report.section("1. What one launch may ask for");
    report.add(ch01::limits_table(device));

    report.section("2. Three ways to cover n elements");
    const ch01::VariantsRun variants =
        ch01::compare_variants(o.n, static_cast<int>(o.block), static_cast<int>(o.reps), o.seed, device, stream);
    report.add(ch01::variants_table(variants));
    report.add(ch01::variants_checks(variants));

    report.section("3. A launch returns before its kernel ends");
    constexpr double kLongKernelMs = 20.0;
    const ch01::LaunchReturnTiming launch = ch01::time_launch_return(kLongKernelMs, stream);
    report.add(ch01::launch_return_table(launch));
    report.add(ch01::launch_return_checks(launch));

    report.section("4. A bad launch configuration is reported, and the program goes on");
    const ch01::LaunchErrorDemo bad = ch01::launch_with_bad_config(2 * device.max_threads_per_block);
    report.add(ch01::launch_error_table(bad, device.max_threads_per_block));
    report.add(ch01::launch_error_checks(bad));

    return chapter.finish();
  });
}
