// Chapter 06: pinned memory and non-blocking copies
// ================================================
// What it shows, one numbered section of README.md each, in this order:
//   1. copy bandwidth host -> device (H2D) and device -> host (D2H) from pageable
//      memory (std::vector) and from pinned memory (cudaHostAlloc), 4 KiB to 1 GiB:
//      pinned copies behind a blocked stream (no launch gap in the pair) beside isolated
//      ones, and both directions at once, each direction alone and together;
//   2. pageable/pinned x cudaMemcpy/cudaMemcpyAsync: when each call returned and when
//      its copy was done (--timeline: as CUPTI saw them); PyTorch's `.to(device,
//      non_blocking=True)` is cudaMemcpyAsync on its current stream;
//   3. registering memory the program already has (cudaHostRegister, ch06::HostRegistration,
//      Numba's `cuda.pinned`): what it costs, after how many copies it pays, and where an
//      upload through registered memory spends its time, phase by phase;
//   4. the CPU time a non-blocking copy frees, and how an early synchronisation
//      ("touching the result at once") or pageable memory gives it back;
//   5. write-combined and mapped ("zero-copy") pinned memory, and unified addressing.
// The lesson is pinned.cu (one function per section); options.hpp declares the
// options and the memory they need; tables.hpp and checks.hpp turn the lesson's
// data into the tables and checks printed here. Why each result comes out as it does: README.md.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch06_pinned_memory
//   build/release/chapters/06_pinned_memory/ch06_pinned_memory [--max-mib 1024] [--mib 256] [--json out.json]
//   [--timeline] [--trace trace.json]
#include <vector>

#include "chapter.cuh"
#include "checks.hpp"
#include "options.hpp"
#include "pinned.cuh"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch06_pinned_memory";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch06::Options o;
    lab::Chapter chapter(kProgram, "Chapter 06: pinned memory and non-blocking copies",
                         "Copies between host and device from pageable and pinned memory: bandwidth, when\n"
                         "cudaMemcpyAsync returns, registering existing memory, the CPU time freed, and\n"
                         "write-combined and mapped memory.");
    ch06::add_options(chapter.options(), o);
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch06::memory_need(o));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    const std::size_t size = ch06::experiment_bytes(o);
    const int reps = static_cast<int>(o.reps);

    report.section("1. Copy bandwidth: pageable and pinned, one direction and both");
    const ch06::SweepRun sweep = ch06::sweep_copies(ch06::sweep_bytes(o), size, o.seed, chapter.device().ordinal,
                                                    stream, reps, !chapter.instrumented());
    report.add(ch06::sweep_table(sweep));
    report.add(ch06::both_directions_table(sweep));
    report.add(ch06::sweep_checks(sweep));

    report.section("2. When the call returns, when the copy is done");
    const ch06::CallsRun calls = ch06::compare_copy_calls(size, stream, reps);
    report.add(ch06::calls_table(calls));
    report.add(ch06::calls_checks(calls));
    ch06::record_copy_calls(chapter.timeline(), size, stream);

    report.section("3. Registering memory the program already has");
    const std::vector<ch06::RegistrationRun> registration = ch06::compare_registration_sizes(size, stream, reps);
    report.add(ch06::registration_table(registration));
    const ch06::UploadRun upload = ch06::time_upload(size, o.seed, stream, reps);
    report.add(ch06::upload_table(upload));
    report.add(ch06::registration_checks(registration, upload));

    report.section("4. The CPU time a non-blocking copy frees");
    const ch06::CpuFreedRun freed = ch06::measure_cpu_time_freed(size, stream, reps);
    report.add(ch06::cpu_freed_table(freed));
    report.add(ch06::cpu_freed_checks(freed));

    report.section("5a. Write-combined pinned memory");
    const ch06::WriteCombinedRun combined =
        ch06::compare_write_combined(size, o.seed, stream, reps, !chapter.instrumented());
    report.add(ch06::write_combined_table(combined));
    report.add(ch06::write_combined_checks(combined));

    report.section("5b. Mapped (zero-copy) memory and unified addressing");
    const ch06::MappedRun mapped = ch06::compare_zero_copy(size, stream, reps);
    report.add(ch06::zero_copy_table(mapped));
    report.add(ch06::zero_copy_checks(mapped));

    return chapter.finish();
  });
}
