// Chapter 09: several GPUs
// ========================
// What it shows, one numbered section of README.md each, in this order:
//   1. what belongs to a device: the current device is per host thread; memory,
//      streams and events belong to the device current when they were made; which
//      calls fail from the wrong current device or across devices (return codes as data);
//   2. peer access: cudaDeviceCanAccessPeer for every pair, the link as NVML reports it,
//      cudaMemcpyPeerAsync with peer access on and off, both directions at once, the same
//      bytes through pinned host memory, and a kernel on GPU 1 reading GPU 0's memory;
//   3. ordering across devices: a consumer on GPU 1 reading what a producer on GPU 0
//      writes, without and with an event (cudaStreamWaitEvent across devices);
//   4. splitting work: each GPU's host link alone and all at once, then a chunked
//      copy-in / kernel / copy-out pipeline on one GPU and on all, against a bound;
//   5. one GPU only: what was skipped and why (the sections above run what they can).
// The lesson is multi_gpu.cu; options.hpp declares the options, data.hpp what
// it returns, tables.hpp and checks.hpp the tables and checks printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch09_multi_gpu
//   build/release/chapters/09_multi_gpu/ch09_multi_gpu [--devices 2] [--mib 256] [--json out.json]
// Exit codes: 0 every check passed (also when sections were skipped for want of a
// second GPU), 1 a wrong result or a CUDA error, 2 a bad command line, 77 no GPU.
#include "chapter.cuh"
#include "checks.hpp"
#include "multi_gpu.cuh"
#include "options.hpp"
#include "program.hpp"
#include "tables.hpp"

constexpr char kProgram[] = "ch09_multi_gpu";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch09::Options o;
    lab::Chapter chapter(kProgram, "Chapter 09: several GPUs",
                         "What belongs to a device, peer access and copies between GPUs, ordering work across\n"
                         "GPUs with an event, and a pipeline split over several GPUs. Sections that need two\n"
                         "GPUs say so and are skipped on one.");
    ch09::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch09::memory_need(o));
    const ch09::DeviceSet devices = ch09::choose_devices(o.devices);
    lab::Report& report = chapter.report();
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. What belongs to a device");
    report.add(ch09::devices_table(devices));
    const ch09::OwnershipRun ownership = ch09::probe_ownership(devices, ch09::kProbeFloats, seed);
    report.add(ch09::ownership_table(ownership));
    report.add(ch09::ownership_checks(ownership));

    report.section("2. Peer access");
    const ch09::PeerMatrix matrix = ch09::read_peer_matrix(devices);
    for (const lab::ResultTable& table : ch09::peer_matrix_tables(matrix)) report.add(table);
    report.add(ch09::peer_matrix_checks(matrix));
    const ch09::PeerCopyRun copies =
        ch09::measure_peer_copies(devices, ch09::copy_bytes(o), static_cast<int>(o.reps), seed + 1);
    for (const lab::ResultTable& table : ch09::peer_copy_tables(copies)) report.add(table);
    report.add(ch09::peer_copy_checks(copies));

    report.section("3. Ordering across devices");
    const ch09::OrderingRun ordering =
        ch09::race_across_devices(devices, ch09::kProbeFloats, o.producer_ms, static_cast<int>(o.runs));
    for (const lab::ResultTable& table : ch09::ordering_tables(ordering)) report.add(table);
    report.add(ch09::ordering_checks(ordering));

    report.section("4. Splitting work over GPUs");
    const ch09::PipelineRun pipeline = ch09::split_pipeline(
        devices, o.n, static_cast<int>(o.chunks), static_cast<int>(o.iterations), static_cast<int>(o.reps), seed + 2);
    report.add(ch09::host_link_table(pipeline.link));
    report.add(ch09::pipeline_table(pipeline));
    report.add(ch09::pipeline_checks(pipeline));

    report.section("5. One GPU only");
    report.add(ch09::summary_checks(ownership, copies, ordering, pipeline));

    return chapter.finish();
  });
}
