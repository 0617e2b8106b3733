// Chapter 01: kernel launch
// =========================
// What it shows
//   - the launch `kernel<<<grid, block, shared_bytes, stream>>>(...)` and three
//     ways to cover n elements: one thread per element, a grid-stride loop,
//     and a grid-stride loop over float4;
//   - what this GPU allows per launch, next to the limits of compute capability
//     1.x that older articles still quote;
//   - that a launch returns to the host long before its kernel ends;
//   - a launch configuration error caught with cudaGetLastError() while the
//     program carries on;
//   - each variant's bandwidth as a percentage of a device-to-device copy
//     measured in the same run.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch01_kernel_launch
//   build/release/chapters/01_kernel_launch/ch01_kernel_launch [--n 64Mi] [--block 256] [--json out.json]
//
// Shape (every chapter): CPU reference -> lesson functions (vector_add.cuh) ->
// the experiment, variants side by side -> a table -> computed verdicts.
#include <cstdio>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "launch_options.hpp"
#include "memory.cuh"
#include "program.hpp"
#include "stream.cuh"
#include "measure.cuh"
#include "vector_add.cuh"
#include "verify.hpp"

namespace {

constexpr char kProgram[] = "ch01_kernel_launch";

// What a GPU of compute capability 1.x allowed (the limits older tutorials
// quote), next to what this one allows.
void print_limits(const lab::DeviceInfo& d) {
  lab::Table table({{"limit", "", false}, {"compute capability 1.x", ""}, {"this GPU", ""}});
  table.add_row({"threads per block", "512", std::to_string(d.max_threads_per_block)});
  table.add_row({"block dimensions (x, y, z)", "512, 512, 64",
                 std::to_string(d.max_block_dim[0]) + ", " + std::to_string(d.max_block_dim[1]) + ", " +
                     std::to_string(d.max_block_dim[2])});
  table.add_row({"grid dimensions (x, y, z)", "65535, 65535, 1",
                 std::to_string(d.max_grid_dim[0]) + ", " + std::to_string(d.max_grid_dim[1]) + ", " +
                     std::to_string(d.max_grid_dim[2])});
  table.add_row({"shared memory per block", "16 KiB",
                 std::to_string(d.shared_per_block / 1024) + " KiB (" +
                     std::to_string(d.shared_per_block_optin / 1024) + " KiB opt-in)"});
  table.add_row({"multiprocessors", "up to 30", std::to_string(d.sm_count)});
  std::printf("What one launch may ask for\n%s\n", table.render().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch01::LaunchOptions opt;
    lab::Chapter chapter(kProgram, "Chapter 01: kernel launch",
                         "Launches c = a + b three ways, verifies each against the CPU, and compares\n"
                         "their bandwidth with a device-to-device copy measured in the same run.");
    ch01::add_launch_options(chapter.options(), opt);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    // What only the machine can tell: does the block fit the GPU, does the data
    // fit in device and host memory? Refused before anything is allocated.
    const lab::DeviceInfo& device = chapter.device();
    if (auto problem = ch01::check_against_machine(opt, device.max_threads_per_block, device.free_memory_bytes,
                                                   lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    print_limits(device);

    // --- CPU reference on random inputs ------------------------------------
    const auto n = static_cast<std::size_t>(opt.n);
    const std::vector<float> a_host = lab::random_floats(n, static_cast<std::uint64_t>(opt.seed));
    const std::vector<float> b_host = lab::random_floats(n, static_cast<std::uint64_t>(opt.seed) + 1);
    const std::vector<float> expected = ch01::add_on_cpu(a_host, b_host);

    lab::DeviceBuffer<float> a(n), b(n), c(n);
    a.upload(a_host);
    b.upload(b_host);
    lab::Stream stream;
    lab::MeasureConfig measure;
    measure.samples = static_cast<int>(opt.reps);

    // --- the reference point: a device-to-device copy of n floats ----------
    // It reads n floats and writes n floats: 2 x 4 x n bytes.
    const double copy_bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    const auto copy_samples = lab::measure_ms(
        [&](cudaStream_t s) { LAB_CHECK(cudaMemcpyAsync(c.data(), a.data(), c.bytes(), cudaMemcpyDeviceToDevice, s)); },
        stream, measure);
    const lab::Summary copy =
        report.add_result("device-to-device copy", "ms", copy_samples, {{"bytes", copy_bytes}});
    const double copy_gbps = lab::gigabytes_per_second(copy_bytes, copy.median);

    // --- the three variants, side by side -----------------------------------
    // At the default n the 768 MiB working set is many times the L2, so warm
    // or cold cache makes no difference here: every sample streams from DRAM.
    lab::Table table({{"variant", "", false},
                      {"grid", "blocks"},
                      {"block", "threads"},
                      {"median", "ms"},
                      {"min", "ms"},
                      {"max", "ms"},
                      {"bandwidth", "GB/s"},
                      {"of copy", "%"}});
    table.add_row({"device-to-device copy", "-", "-", lab::fixed(copy.median, 3), lab::fixed(copy.min, 3),
                   lab::fixed(copy.max, 3), lab::fixed(copy_gbps, 0), "100"});
    double best_percent = 0;
    std::string best_name;
    for (ch01::AddVariant variant : ch01::kAllVariants) {
      const char* name = ch01::variant_name(variant);
      const ch01::LaunchConfig config = ch01::choose_config(variant, opt.n, static_cast<int>(opt.block), device);

      c.poison(stream);
      ch01::launch_add(variant, a.data(), b.data(), c.data(), opt.n, config, stream);
      stream.synchronize();
      const lab::Comparison first_run = lab::compare(c.download(), expected);  // exact: one IEEE add
      report.check(std::string(name) + " matches the CPU (exact)", first_run.passed(), first_run.detail());

      const auto samples = lab::measure_ms(
          [&](cudaStream_t s) { ch01::launch_add(variant, a.data(), b.data(), c.data(), opt.n, config, s); }, stream,
          measure);
      // The timing loop must not have broken anything: check once more.
      const lab::Comparison after = lab::compare(c.download(), expected);
      report.check(std::string(name) + " still correct after timing", after.passed(), after.detail());

      const lab::Summary s = lab::summarize(samples);
      const double gbps = lab::gigabytes_per_second(ch01::add_bytes(opt.n), s.median);
      const double percent = 100.0 * gbps / copy_gbps;
      report.add_result(name, "ms", samples,
                        {{"grid", config.grid}, {"block", config.block}, {"bytes", ch01::add_bytes(opt.n)}, {"bandwidth_gbps", gbps}, {"percent_of_copy", percent}});
      table.add_row({name, std::to_string(config.grid), std::to_string(config.block), lab::fixed(s.median, 3),
                     lab::fixed(s.min, 3), lab::fixed(s.max, 3), lab::fixed(gbps, 0), lab::fixed(percent, 1)});
      if (percent > best_percent) {
        best_percent = percent;
        best_name = name;
      }
    }
    std::printf(
        "\n%zu floats per vector, %lld samples each (median, min, max); bandwidth counts a and b read, c written\n%s",
        n, static_cast<long long>(opt.reps), table.render().c_str());
    std::printf("best: %s at %.1f %% of the copy's bandwidth\n", best_name.c_str(), best_percent);
    // Whether these are DRAM numbers depends on n: a working set that fits in
    // the L2 stays there between samples, and the copy and the kernels race
    // each other through the cache instead of through memory.
    const double working_set = ch01::add_bytes(opt.n);
    if (working_set < static_cast<double>(device.l2_bytes)) {
      std::printf(
          "note: a, b and c (%.1f MiB) fit in the %.0f MiB L2, so these are warm-cache figures, not DRAM\n"
          "bandwidth; use --n 64Mi or more to measure memory\n",
          working_set / (1 << 20), static_cast<double>(device.l2_bytes) / (1 << 20));
    }
    constexpr std::int64_t kBenchmarkN = std::int64_t{64} << 20;
    if (opt.n == kBenchmarkN) {
      std::printf("benchmark (n = 64Mi): best variant >= 90 %% of the copy: %s\n",
                  best_percent >= 90.0 ? "met" : "NOT met in this run");
    }
    std::printf("\n");

    // --- a launch returns before its kernel ends ----------------------------
    constexpr double kLongKernelMs = 20.0;
    const ch01::LaunchReturnTiming t = ch01::time_launch_return(kLongKernelMs, stream);
    std::printf(
        "A launch returns before the kernel ends\n"
        "  the launch call returned after   %9.3f ms\n"
        "  the kernel ran on the GPU for     %9.3f ms (events)\n"
        "  cudaStreamSynchronize returned at %9.3f ms\n",
        t.launch_call_ms, t.kernel_ms, t.until_sync_ms);
    report.add_result("launch call of a 20 ms kernel", "ms", {t.launch_call_ms},
                      {{"kernel_ms", t.kernel_ms}, {"until_sync_ms", t.until_sync_ms}});
    char detail[160];
    std::snprintf(detail, sizeof detail, "launch returned after %.3f ms, the kernel ran %.3f ms (%.0fx longer)",
                  t.launch_call_ms, t.kernel_ms, t.kernel_ms / t.launch_call_ms);
    report.check("launch returns before the kernel ends (under 1/10 of its time)",
                 t.launch_call_ms < t.kernel_ms / 10.0, detail);

    // --- a bad launch configuration is caught, and the program goes on ------
    const int too_many = 2 * device.max_threads_per_block;
    const ch01::LaunchErrorDemo bad = ch01::launch_with_bad_config(too_many);
    std::printf(
        "\nA launch with %d threads per block (the limit is %d)\n"
        "  cudaGetLastError() -> %s\n  a valid launch afterwards: %s\n",
        too_many, device.max_threads_per_block, bad.error_text.c_str(),
        bad.later_launch_ok ? "ran and was correct" : "FAILED");
    report.check("bad configuration reported by cudaGetLastError", bad.error != cudaSuccess, bad.error_text);
    report.check("the program carries on after the bad launch", bad.later_launch_ok,
                 bad.later_launch_ok ? "a valid launch ran and was correct" : "the valid launch failed");
    std::printf("\n");
    return chapter.finish();
  });
}
