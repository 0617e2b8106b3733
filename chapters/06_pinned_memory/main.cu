// Chapter 06: pinned memory and non-blocking copies
// ================================================
// What it shows, one numbered section of README.md each, in this order:
//   1. copy bandwidth host -> device (H2D) and device -> host (D2H) from pageable
//      memory (std::vector) and from pinned memory (cudaHostAlloc), 4 KiB to 1 GiB:
//      pinned copies behind a blocked stream (the GPU's time only) beside isolated
//      ones, and both directions at once, each direction alone and together;
//   2. the four combinations of the PyTorch articles (`.to(device, non_blocking=...)`
//      from pageable and pinned tensors): pageable/pinned x cudaMemcpy/cudaMemcpyAsync,
//      when each call returned and when its copy was done (--timeline: as CUPTI saw them);
//   3. registering memory the program already has (cudaHostRegister, ch06::HostRegistration,
//      Numba's `cuda.pinned`): what it costs, after how many copies it pays, and where an
//      upload through registered memory spends its time, phase by phase;
//   4. the CPU time a non-blocking copy frees, and how an early synchronisation
//      ("touching the result at once") or pageable memory gives it back;
//   5. write-combined and mapped ("zero-copy") pinned memory, and unified addressing.
// The lesson is pinned.cuh (one function per section); findings.hpp turns its data
// into the tables and findings printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch06_pinned_memory
//   build/release/chapters/06_pinned_memory/ch06_pinned_memory [--max-mib 1024] [--mib 256] [--json out.json]
//   [--timeline] [--trace trace.json]
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "pinned.cuh"
#include "program.hpp"
#include "stream.cuh"

namespace {

struct Settings {
  std::int64_t max_mib = 1024;  // the sweep's largest size: 4 KiB, 16 KiB, ... up to this
  std::int64_t mib = 256;       // the size of every other experiment (the articles': 256 MiB)
  std::int64_t reps = 10;       // samples per measurement; the median is reported
  std::int64_t seed = 1;
};

constexpr std::size_t kMiB = std::size_t{1} << 20;

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program("ch06_pinned_memory", [&] {
    Settings s;
    lab::Chapter chapter("ch06_pinned_memory", "Chapter 06: pinned memory and non-blocking copies",
                         "Copies between host and device from pageable and pinned memory: bandwidth, when\n"
                         "cudaMemcpyAsync returns, registering existing memory, the CPU time freed, and\n"
                         "write-combined and mapped memory.");
    chapter.options()
        .add("max-mib", &s.max_mib, 1, 65536, "largest size of the bandwidth sweep, in MiB (4 KiB, 16 KiB, ... up to it)")
        .add("mib", &s.mib, 1, 65536, "size of the other experiments, in MiB")
        .add("reps", &s.reps, 1, 1000, "samples per measurement (the median is reported)")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "seed of the random bytes copied")
        .add_rule([&] {
          return s.mib <= s.max_mib ? "" : "--mib " + std::to_string(s.mib) + " must not exceed --max-mib " +
                                               std::to_string(s.max_mib);
        });
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    const std::string too_big =
        ch06::memory_problem(s.max_mib, s.mib, device.free_memory_bytes, lab::available_host_memory_bytes());
    if (!too_big.empty()) throw lab::UsageError(too_big);
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    const int reps = static_cast<int>(s.reps);
    const auto seed = static_cast<std::uint64_t>(s.seed);
    const std::size_t largest = static_cast<std::size_t>(s.max_mib) * kMiB;
    const std::size_t size = static_cast<std::size_t>(s.mib) * kMiB;

    report.section("1. Copy bandwidth: pageable and pinned, one direction and both");
    const ch06::SweepRun sweep = ch06::sweep_copies(largest, size, seed, device.ordinal, stream, reps,
                                                    !chapter.instrumented());
    report.add(ch06::sweep_table(sweep));
    report.add(ch06::both_directions_table(sweep));
    report.add(ch06::sweep_findings(sweep));
    report.add(ch06::sweep_background());

    report.section("2. When the call returns, when the copy is done");
    const ch06::CallsRun calls = ch06::compare_copy_calls(size, stream, reps);
    report.add(ch06::calls_table(calls));
    report.add(ch06::calls_findings(calls));
    report.add(ch06::calls_background());
    ch06::record_copy_calls(chapter.timeline(), size, stream);

    report.section("3. Registering memory the program already has");
    const std::vector<ch06::RegistrationRun> registration = ch06::compare_registration_sizes(size, stream, reps);
    report.add(ch06::registration_table(registration));
    const ch06::UploadRun upload = ch06::time_upload(size, seed + 100, stream, reps);
    report.add(ch06::upload_table(upload));
    report.add(ch06::registration_findings(registration, upload));
    report.add(ch06::registration_background());

    report.section("4. The CPU time a non-blocking copy frees");
    const ch06::CpuFreedRun freed = ch06::measure_cpu_time_freed(size, stream, reps);
    report.add(ch06::cpu_freed_table(freed));
    report.add(ch06::cpu_freed_findings(freed));

    report.section("5a. Write-combined pinned memory");
    const ch06::WriteCombinedRun combined = ch06::compare_write_combined(size, seed + 200, stream, reps,
                                                                       !chapter.instrumented());
    report.add(ch06::write_combined_table(combined));
    report.add(ch06::write_combined_findings(combined));
    report.add(ch06::write_combined_background());

    report.section("5b. Mapped (zero-copy) memory and unified addressing");
    const ch06::MappedRun mapped = ch06::compare_zero_copy(size, stream, reps);
    report.add(ch06::zero_copy_background());
    report.add(ch06::zero_copy_table(mapped));
    report.add(ch06::zero_copy_findings(mapped));

    return chapter.finish();
  });
}
