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
// The lesson is multi_gpu.cuh; findings.hpp turns its data into the tables and
// findings printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch09_multi_gpu
//   build/release/chapters/09_multi_gpu/ch09_multi_gpu [--devices 2] [--mib 256] [--json out.json]
// Exit codes: 0 every check passed (also when sections were skipped for want of a
// second GPU), 1 a wrong result or a CUDA error, 2 a bad command line, 77 no GPU.
#include <cstdint>

#include "chapter.cuh"
#include "multi_gpu.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  return lab::run_program("ch09_multi_gpu", [&] {
    std::int64_t devices_wanted = 0, mib = 256, n = std::int64_t{32} << 20, chunks = 8, iterations = 2000;
    std::int64_t reps = 10, runs = 5, seed = 9;
    double producer_ms = 20;
    lab::Chapter chapter("ch09_multi_gpu", "Chapter 09: several GPUs",
                         "What belongs to a device, peer access and copies between GPUs, ordering work across\n"
                         "GPUs with an event, and a pipeline split over several GPUs. Sections that need two\n"
                         "GPUs say so and are skipped on one.");
    chapter.options()
        .add("devices", &devices_wanted, 0, 64, "use the first N GPUs (0: all of them)")
        .add("mib", &mib, 1, 8192, "MiB per copy between GPUs (section 2)")
        .add("n", &n, 1, std::int64_t{1} << 30, "floats through the pipeline (section 4)")
        .add("chunks", &chunks, 1, 1024, "chunks the pipeline cuts the data into")
        .add("iterations", &iterations, 1, 100000, "steps of the pipeline's kernel per element")
        .add("reps", &reps, 1, 1000, "timed samples of each measurement (after one warm-up)")
        .add("runs", &runs, 1, 1000, "producer/consumer runs of each kind (section 3)")
        .add("producer-ms", &producer_ms, 1.0, 1000.0, "how long the producer spins before it writes")
        .add("seed", &seed, 0, std::int64_t{1} << 62, "random inputs")
        .add_rule([&] { return chunks > n ? "--chunks must be at most --n" : ""; });
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const ch09::DeviceSet devices = ch09::choose_devices(devices_wanted);
    lab::Report& report = chapter.report();
    const auto seed_value = static_cast<std::uint64_t>(seed);

    report.section("1. What belongs to a device");
    report.add(ch09::devices_table(devices));
    const ch09::OwnershipRun ownership = ch09::probe_ownership(devices, std::int64_t{1} << 20, seed_value);
    report.add(ch09::ownership_table(ownership));
    report.add(ch09::ownership_findings(ownership));
    report.add(ch09::ownership_background());

    report.section("2. Peer access");
    const ch09::PeerMatrix matrix = ch09::read_peer_matrix(devices);
    report.add(ch09::peer_matrix_table(matrix));
    if (!matrix.pairs.empty()) report.add(ch09::link_table(matrix));
    report.add(ch09::peer_matrix_findings(matrix));
    const ch09::PeerCopyRun copies = ch09::measure_peer_copies(
        devices, static_cast<std::size_t>(mib) << 20, static_cast<int>(reps), seed_value + 1);
    if (copies.skipped.empty()) report.add(ch09::peer_copy_table(copies));
    report.add(ch09::peer_copy_findings(copies));
    report.add(ch09::peer_copy_background());

    report.section("3. Ordering across devices");
    const ch09::OrderingRun ordering = ch09::race_across_devices(devices, std::int64_t{1} << 20, producer_ms,
                                                                 static_cast<int>(runs));
    if (ordering.skipped.empty()) report.add(ch09::ordering_table(ordering));
    report.add(ch09::ordering_findings(ordering));
    report.add(ch09::ordering_background());

    report.section("4. Splitting work over GPUs");
    const ch09::PipelineRun pipeline = ch09::split_pipeline(devices, n, static_cast<int>(chunks),
                                                            static_cast<int>(iterations), static_cast<int>(reps),
                                                            seed_value + 2);
    report.add(ch09::host_link_table(pipeline.link));
    report.add(ch09::host_link_findings(pipeline.link));
    report.add(ch09::pipeline_table(pipeline));
    report.add(ch09::pipeline_findings(pipeline));
    report.add(ch09::pipeline_background());

    report.section("5. One GPU only");
    report.add(ch09::summary_findings(ownership, copies, ordering, pipeline));

    return chapter.finish();
  });
}
