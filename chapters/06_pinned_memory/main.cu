// Chapter 06: pinned memory and non-blocking copies
// ================================================
// What it shows
//   - copy bandwidth host -> device (H2D) and device -> host (D2H) from pageable
//     memory (std::vector) and from pinned memory (cudaMallocHost), over sizes from
//     4 KiB to 1 GiB, and both directions at once from pinned memory;
//   - the four combinations of the PyTorch articles (`.to(device, non_blocking=...)`
//     from pageable and pinned tensors): pageable/pinned x cudaMemcpy/cudaMemcpyAsync,
//     each with the time until the call returned and until the copy was done;
//   - registering memory the program already has (cudaHostRegister, lab::HostRegistration,
//     Numba's `cuda.pinned`): what it costs and after how many copies it pays;
//   - the CPU time a non-blocking copy frees, and how an early synchronisation
//     ("touching the result at once") or pageable memory gives it back;
//   - write-combined and mapped ("zero-copy") pinned memory, briefly, with when each helps.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch06_pinned_memory
//   build/release/chapters/06_pinned_memory/ch06_pinned_memory [--max-mib 1024] [--mib 256] [--json out.json]
//
// Shape (every chapter): CPU reference (the source bytes) -> lesson functions
// (pinned.cuh, registration_model.hpp) -> the experiment, variants side by side
// -> a table -> computed verdicts.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "nvml.cuh"
#include "pinned.cuh"
#include "program.hpp"
#include "registration_model.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "timers.cuh"
#include "verify.hpp"

namespace {

constexpr char kProgram[] = "ch06_pinned_memory";
constexpr std::int64_t kMiB = std::int64_t{1} << 20;

struct Settings {
  std::int64_t max_mib = 1024;  // the sweep's largest size: 4 KiB, 16 KiB, ... up to this
  std::int64_t mib = 256;       // the size of every other experiment (the articles': 256 MiB)
  std::int64_t reps = 10;       // samples per measurement; the median is reported
  std::int64_t seed = 1;
};

std::string size_text(std::size_t bytes) { return lab::format_count(static_cast<std::int64_t>(bytes)) + "B"; }
std::string ms(double value) { return lab::fixed(value, 3); }
std::string gbps(double bytes, double milliseconds) {
  return lab::fixed(lab::gigabytes_per_second(bytes, milliseconds), 1);
}

// Bandwidth of each sample, for the JSON (samples in GB/s, not ms).
std::vector<double> to_gbps(double bytes, const std::vector<double>& samples_ms) {
  std::vector<double> result;
  for (double t : samples_ms) result.push_back(lab::gigabytes_per_second(bytes, t));
  return result;
}

struct SweepRow {
  std::size_t bytes;
  double pageable_h2d_ms, pinned_h2d_ms, pageable_d2h_ms, pinned_d2h_ms, both_ms;
  bool intact;
};

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 06: pinned memory and non-blocking copies",
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
    chapter.measure_sm_clock();
    const lab::DeviceInfo& device = chapter.device();
    const std::size_t largest = static_cast<std::size_t>(s.max_mib * kMiB);
    const std::size_t size = static_cast<std::size_t>(s.mib * kMiB);
    if (auto problem = lab::check_memory_fits(
            "--max-mib " + std::to_string(s.max_mib) + " with --mib " + std::to_string(s.mib),
            {2.0 * largest + 3.0 * size,
             "two arrays of --max-mib (both directions at once), three of --mib (registration, zero-copy)",
             4.0 * largest + 8.0 * size,
             "pageable and pinned source and destination of --max-mib, and eight buffers of --mib"},
            device.free_memory_bytes, lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    const int reps = static_cast<int>(s.reps);
    const auto seed = static_cast<std::uint64_t>(s.seed);
    lab::Stream stream;
    lab::DeviceBuffer<unsigned char> device_in(largest), device_out(largest);
    ch06::HostMemory pageable_src(ch06::HostKind::pageable, largest), pageable_dst(ch06::HostKind::pageable, largest);
    ch06::HostMemory pinned_src(ch06::HostKind::pinned, largest), pinned_dst(ch06::HostKind::pinned, largest);

    // --- 1. bandwidth over sizes -------------------------------------------------------
    std::vector<std::size_t> sizes;
    for (std::size_t bytes = 4096; bytes <= largest; bytes *= 4) sizes.push_back(bytes);
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    std::sort(sizes.begin(), sizes.end());
    std::vector<SweepRow> rows;
    bool sweep_intact = true;
    for (std::size_t bytes : sizes) {
      SweepRow row{bytes, 0, 0, 0, 0, 0, true};
      const double b = static_cast<double>(bytes);
      auto record = [&](const std::string& what, const std::vector<double>& samples, double moved) {
        report.add_result(what + ", " + size_text(bytes), "GB/s", to_gbps(moved, samples),
                          {{"bytes", b}, {"median_ms", lab::median(samples)}});
        return lab::median(samples);
      };
      using ch06::Direction;
      row.pageable_h2d_ms = record("H2D pageable", ch06::time_copy_ms(Direction::host_to_device, pageable_src.data(),
                                                                      device_in.data(), bytes, stream, reps), b);
      row.pinned_h2d_ms = record("H2D pinned", ch06::time_copy_ms(Direction::host_to_device, pinned_src.data(),
                                                                  device_in.data(), bytes, stream, reps), b);
      row.pageable_d2h_ms = record("D2H pageable", ch06::time_copy_ms(Direction::device_to_host, pageable_dst.data(),
                                                                      device_out.data(), bytes, stream, reps), b);
      row.pinned_d2h_ms = record("D2H pinned", ch06::time_copy_ms(Direction::device_to_host, pinned_dst.data(),
                                                                  device_out.data(), bytes, stream, reps), b);
      row.both_ms = record("both directions pinned (total)",
                           ch06::time_both_directions_ms(pinned_src.data(), device_in.data(), device_out.data(),
                                                         pinned_dst.data(), bytes, stream, reps),
                           2 * b);
      // Every size arrives intact, from both kinds of memory.
      const ch06::CopyCheck pageable = ch06::round_trip(pageable_src, device_in.data(), pageable_dst, bytes, seed, stream);
      const ch06::CopyCheck pinned = ch06::round_trip(pinned_src, device_in.data(), pinned_dst, bytes, seed + 1, stream);
      row.intact = pageable.intact && pinned.intact;
      if (!row.intact) {
        std::printf("   WRONG at %s: pageable %s; pinned %s\n", size_text(bytes).c_str(), pageable.detail().c_str(),
                    pinned.detail().c_str());
      }
      sweep_intact = sweep_intact && row.intact;
      rows.push_back(row);
    }
    std::printf(
        "1. Copy bandwidth, GB/s (10^9 bytes/s), median of %d isolated copies (cudaMemcpyAsync between events)\n",
        reps);
    lab::Table sweep({{"size", "", false},
                      {"H2D pageable", "GB/s"},
                      {"H2D pinned", "GB/s"},
                      {"D2H pageable", "GB/s"},
                      {"D2H pinned", "GB/s"},
                      {"both pinned", "GB/s total"},
                      {"pinned/pageable H2D", ""},
                      {"data", "", false}});
    for (const SweepRow& r : rows) {
      const double b = static_cast<double>(r.bytes);
      sweep.add_row({size_text(r.bytes), gbps(b, r.pageable_h2d_ms), gbps(b, r.pinned_h2d_ms), gbps(b, r.pageable_d2h_ms),
                     gbps(b, r.pinned_d2h_ms), gbps(2 * b, r.both_ms),
                     lab::fixed(r.pageable_h2d_ms / r.pinned_h2d_ms, 1) + "x", r.intact ? "intact" : "WRONG"});
    }
    std::printf("%s", sweep.render().c_str());
    report.check("every copy of the sweep arrived intact (pageable and pinned, both ways)", sweep_intact,
                 std::to_string(rows.size()) + " sizes, random bytes, poisoned destinations");

    // The benchmark: pinned H2D at --mib against the best the sweep reached, and the link's theoretical rate.
    const SweepRow* at_size = nullptr;
    const SweepRow* best = nullptr;
    for (const SweepRow& r : rows) {
      if (r.bytes == size) at_size = &r;
      if (best == nullptr || r.bytes / r.pinned_h2d_ms > best->bytes / best->pinned_h2d_ms) best = &r;
    }
    const double at_size_gbps = lab::gigabytes_per_second(static_cast<double>(size), at_size->pinned_h2d_ms);
    const double best_gbps = lab::gigabytes_per_second(static_cast<double>(best->bytes), best->pinned_h2d_ms);
    const lab::NvmlReading nvml = lab::read_nvml(device.ordinal);
    const double link_gbps = lab::pcie_gigabytes_per_second(nvml.pcie_generation_max, nvml.pcie_width_max);
    const std::string link_text =
        link_gbps > 0 ? "PCIe Gen" + std::to_string(nvml.pcie_generation_max) + " x" +
                            std::to_string(nvml.pcie_width_max) + " (" + lab::fixed(link_gbps, 1) +
                            " GB/s per direction in theory; in use now: Gen" +
                            std::to_string(nvml.pcie_generation_now) + " x" + std::to_string(nvml.pcie_width_now) + ")"
                      : "unknown (NVML could not tell)";
    std::printf(
        "   link: %s\n"
        "   pinned H2D at %s: %.1f GB/s = %.1f %% of the best pinned H2D of the sweep (%.1f GB/s at %s)%s\n"
        "   pinned is %.1fx pageable for H2D and %.1fx for D2H at %s; both directions at once move %.2fx\n"
        "   what one direction moves (the link is full duplex, each direction has its own lanes).\n"
        "   Small copies are dominated by a fixed cost per call, so their bandwidth is low whatever the memory.\n\n",
        link_text.c_str(), size_text(size).c_str(), at_size_gbps, 100 * at_size_gbps / best_gbps, best_gbps,
        size_text(best->bytes).c_str(),
        link_gbps > 0 ? (", " + lab::fixed(100 * at_size_gbps / link_gbps, 1) + " % of the link's theoretical rate").c_str()
                      : "",
        at_size->pageable_h2d_ms / at_size->pinned_h2d_ms, at_size->pageable_d2h_ms / at_size->pinned_d2h_ms,
        size_text(size).c_str(), at_size->pinned_h2d_ms / at_size->both_ms * 2);
    report.add_result("benchmark: pinned H2D at --mib, % of the sweep's best", "%", {100 * at_size_gbps / best_gbps},
                      {{"gbps", at_size_gbps}, {"best_gbps", best_gbps}, {"best_bytes", static_cast<double>(best->bytes)}, {"link_gbps", link_gbps}, {"percent_of_link", link_gbps > 0 ? 100 * at_size_gbps / link_gbps : 0.0}, {"pcie_generation_max", nvml.pcie_generation_max}, {"pcie_width_max", nvml.pcie_width_max}});

    // --- 2. the four combinations --------------------------------------------------------
    ch06::HostMemory pageable(ch06::HostKind::pageable, size), pinned(ch06::HostKind::pinned, size);
    std::vector<ch06::CallTiming> calls;
    for (ch06::HostMemory* memory : {&pageable, &pinned}) {
      for (bool async_call : {false, true}) {
        calls.push_back(ch06::time_copy_call(*memory, device_in.data(), async_call, stream, reps));
      }
    }
    std::printf(
        "2. One H2D copy of %s, four ways (median of %d, each from an idle GPU): when did the call return,\n"
        "   and when was the copy done (cudaDeviceSynchronize returned)?\n",
        size_text(size).c_str(), reps);
    lab::Table four({{"memory", "", false},
                     {"call", "", false},
                     {"returned", "ms"},
                     {"done", "ms"},
                     {"returned / done", "%"},
                     {"the host", "", false},
                     {"data", "", false}});
    bool calls_intact = true;
    for (const ch06::CallTiming& c : calls) {
      // "Waited" is computed: the call returned after more than half of the copy.
      const bool waited = c.returned_ms > 0.5 * c.done_ms;
      four.add_row({ch06::host_kind_name(c.memory), c.call(), ms(c.returned_ms), ms(c.done_ms),
                    lab::fixed(100 * c.returned_ms / c.done_ms, 1), waited ? "waited for the copy" : "went on at once",
                    c.check.intact ? "intact" : "WRONG"});
      calls_intact = calls_intact && c.check.intact;
      report.add_result(std::string("H2D ") + ch06::host_kind_name(c.memory) + " " + c.call() + ": returned", "ms",
                        c.returned_samples, {{"done_ms", c.done_ms}, {"bytes", static_cast<double>(size)}});
    }
    std::printf("%s", four.render().c_str());
    // --timeline / --trace: one copy of each combination, as CUPTI saw it, and
    // the time the call kept the host ('T' on the row "the call").
    for (ch06::HostMemory* memory : {&pageable, &pinned}) {
      for (bool async_call : {false, true}) {
        if (!chapter.timeline().wanted()) break;
        chapter.timeline().begin(std::string("H2D from ") + ch06::host_kind_name(memory->kind()) +
                                 (async_call ? " memory, cudaMemcpyAsync" : " memory, cudaMemcpy"));
        chapter.timeline().name_stream(stream, "the chapter's stream");
        const std::uint64_t call_start = lab::TimelineRecorder::now_ns();
        ch06::copy_to_device(*memory, device_in.data(), async_call, stream);
        chapter.timeline().mark("the call", "the copy call, until it returned", call_start,
                                lab::TimelineRecorder::now_ns());
        chapter.timeline().end();
      }
    }
    const ch06::CallTiming& pinned_async = calls[3];
    const ch06::CallTiming& pageable_async = calls[1];
    std::printf(
        "   -> only pinned memory with cudaMemcpyAsync gave the host its time back: it returned after %.3f ms of\n"
        "      a %.3f ms copy; from pageable memory the \"async\" call returned after %.3f ms of %.3f ms, because\n"
        "      the driver stages pageable data through its own pinned buffer with the CPU, in the call.\n",
        pinned_async.returned_ms, pinned_async.done_ms, pageable_async.returned_ms, pageable_async.done_ms);
    if (!(pinned_async.returned_ms < 0.1 * pinned_async.done_ms && pageable_async.returned_ms > 0.5 * pageable_async.done_ms)) {
      std::printf("      NOTE: this run does not show that cleanly: read the table above.\n");
    }
    std::printf("\n");
    report.check("the four copy calls delivered the data", calls_intact, "each read back and compared");

    // --- 3. registering existing memory -----------------------------------------------------
    std::vector<std::size_t> registration_sizes;
    for (std::size_t bytes = 1 << 20; bytes < size; bytes *= 16) registration_sizes.push_back(bytes);
    registration_sizes.push_back(size);
    std::printf(
        "3. Page-locking memory the program already has: cudaHostRegister / cudaHostUnregister\n"
        "   (lab::HostRegistration; Numba: `with cuda.pinned(array):`), median of %d rounds\n",
        reps);
    lab::Table registration({{"size", "", false},
                             {"register", "ms"},
                             {"unregister", "ms"},
                             {"copy pageable", "ms"},
                             {"copy registered", "ms"},
                             {"saved per copy", "ms"},
                             {"pays off after", "copies"},
                             {"contents", "", false}});
    bool registration_intact = true;
    std::size_t first_copy_pays = 0;  // the smallest size at which registering paid on the first copy
    int most_copies = 0;              // the most copies any size needed (0: some size never paid)
    bool some_never = false;
    for (std::size_t bytes : registration_sizes) {
      ch06::HostMemory buffer(ch06::HostKind::pageable, bytes);
      const ch06::RegistrationRun r = ch06::time_registration(buffer, device_in.data(), stream, reps);
      const int copies = ch06::copies_to_break_even(r.costs());
      if (copies == 1 && first_copy_pays == 0) first_copy_pays = bytes;
      if (copies != 1) first_copy_pays = 0;  // only a run of sizes up to the largest counts
      some_never = some_never || copies == 0;
      most_copies = std::max(most_copies, copies);
      registration.add_row({size_text(bytes), ms(r.register_ms), ms(r.unregister_ms), ms(r.pageable_copy_ms),
                            ms(r.registered_copy_ms), ms(r.pageable_copy_ms - r.registered_copy_ms),
                            copies == 0 ? "never" : std::to_string(copies),
                            r.contents.intact && r.copied.intact ? "intact" : "WRONG"});
      registration_intact = registration_intact && r.contents.intact && r.copied.intact;
      report.add_result("registration, " + size_text(bytes) + ": register + unregister", "ms",
                        {r.register_ms + r.unregister_ms},
                        {{"bytes", static_cast<double>(bytes)}, {"register_ms", r.register_ms}, {"unregister_ms", r.unregister_ms}, {"pageable_copy_ms", r.pageable_copy_ms}, {"registered_copy_ms", r.registered_copy_ms}, {"copies_to_break_even", copies}});
    }
    std::printf("%s", registration.render().c_str());
    // The lesson's upload_registered(): lock, queue the copy, return at once; unlock after the stream is done.
    std::vector<float> values = lab::random_floats(size / sizeof(float), seed);
    lab::DeviceBuffer<float> uploaded(values.size());
    uploaded.poison(stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    lab::HostTimer upload_timer;
    double upload_returned_ms = 0;
    {
      lab::HostRegistration locked = ch06::upload_registered(values, uploaded.data(), stream);
      upload_returned_ms = upload_timer.elapsed_ms();
      LAB_CHECK(cudaStreamSynchronize(stream));  // the pages stay locked until the copy is done
    }
    const double upload_done_ms = upload_timer.elapsed_ms();
    const lab::Comparison upload = lab::compare(uploaded.download(), values);
    std::printf(
        "   ch06::upload_registered (lock, queue the copy, return; unlock once the stream is done), %s of floats:\n"
        "   returned after %.3f ms (the registration: locking the pages is the call's cost), done and unlocked\n"
        "   after %.3f ms: %s\n"
        "   Registration pins every page, so its cost grows with the size, like the copy's.\n",
        size_text(size).c_str(), upload_returned_ms, upload_done_ms, upload.passed() ? "correct" : "WRONG");
    if (some_never) {
      std::printf("   -> at some size a registered copy was not faster: registering never paid there.\n\n");
    } else if (first_copy_pays != 0) {
      std::printf(
          "   -> here registering paid on the very first copy from %s up (locking cost less than the staging it\n"
          "      saved), and after at most %d copies at every size measured.\n\n",
          size_text(first_copy_pays).c_str(), most_copies);
    } else {
      std::printf("   -> here registering paid after at most %d copies of the same buffer at every size measured.\n\n",
                  most_copies);
    }
    report.check("registration kept every buffer's contents and its copies arrived", registration_intact && upload.passed(),
                 std::to_string(registration_sizes.size()) + " sizes; upload_registered: " + upload.detail());

    // --- 4. the CPU time freed ---------------------------------------------------------------
    const double copy_ms = lab::median(ch06::time_copy_ms(ch06::Direction::host_to_device, pinned.data(), device_in.data(),
                                                     size, stream, reps));
    const std::int64_t steps = ch06::calibrate_cpu_work(copy_ms);
    std::vector<double> cpu_alone;
    for (int rep = 0; rep < reps; ++rep) {
      lab::HostTimer timer;
      volatile std::uint64_t sink = ch06::cpu_work(steps);
      (void)sink;
      cpu_alone.push_back(timer.elapsed_ms());
    }
    const double cpu_ms = lab::median(cpu_alone);
    const double one_after_other_ms = copy_ms + cpu_ms;  // copy, then CPU work, no overlap
    std::printf(
        "4. The CPU time a non-blocking copy frees: a %s H2D copy (pinned: %.3f ms) and CPU work of %.3f ms\n"
        "   (calibrated to the copy), median wall time of %d runs from the copy call until both are done\n",
        size_text(size).c_str(), copy_ms, cpu_ms, reps);
    lab::Table placements({{"order", "", false}, {"wall", "ms"}, {"vs the sum", "%"}, {"data", "", false}});
    std::vector<ch06::PlacementRun> placement_runs;
    bool placement_intact = true;
    for (ch06::Placement p : {ch06::Placement::after_nonblocking_copy, ch06::Placement::after_pageable_copy,
                              ch06::Placement::after_early_sync}) {
      placement_runs.push_back(ch06::time_placement(p, pinned, pageable, device_in.data(), steps, stream, reps));
      const ch06::PlacementRun& r = placement_runs.back();
      placements.add_row({ch06::placement_name(p), ms(r.wall_ms), lab::fixed(100 * r.wall_ms / one_after_other_ms, 0),
                          r.check.intact ? "intact" : "WRONG"});
      placement_intact = placement_intact && r.check.intact;
      report.add_result(std::string("CPU work placement: ") + ch06::placement_name(p), "ms", r.samples);
    }
    std::printf("%s", placements.render().c_str());
    const double freed = placement_runs[1].wall_ms - placement_runs[0].wall_ms;
    std::printf(
        "   -> \"vs the sum\" is the wall time against copy + CPU work done one after the other (pinned copy).\n"
        "      Pinned + cudaMemcpyAsync with the CPU work placed after the call took %.3f ms: %s.\n"
        "      Synchronising at once (\"touching the result\") took %.3f ms; pageable memory took %.3f ms, %.3f ms\n"
        "      more than pinned + non-blocking (the slower copy, and the CPU busy staging it, not doing its work).\n"
        "      %s\n\n",
        placement_runs[0].wall_ms,
        placement_runs[0].wall_ms < 0.8 * one_after_other_ms ? "the copy and the CPU work overlapped"
                                                                         : "they did NOT overlap in this run",
        placement_runs[2].wall_ms, placement_runs[1].wall_ms, freed,
        placement_runs[0].wall_ms * 1.25 < std::min(placement_runs[1].wall_ms, placement_runs[2].wall_ms)
            ? "Only both together, pinned memory and no synchronisation before the CPU work, freed the CPU."
            : "In this run the three orders were not clearly apart (less than 25 %): read the table.");
    report.check("the copies beside the CPU work arrived", placement_intact, "each read back and compared");

    // --- 5. write-combined and mapped memory --------------------------------------------------
    ch06::HostMemory combined(ch06::HostKind::write_combined, size);
    const double combined_h2d = lab::median(ch06::time_copy_ms(ch06::Direction::host_to_device, combined.data(),
                                                          device_in.data(), size, stream, reps));
    const ch06::CpuAccess pinned_cpu = ch06::time_cpu_access(pinned, std::min(reps, 3));
    const ch06::CpuAccess combined_cpu = ch06::time_cpu_access(combined, std::min(reps, 3));
    const ch06::CopyCheck combined_check = ch06::round_trip(combined, device_in.data(), pinned, size, seed + 2, stream);
    const double read_slowdown = pinned_cpu.read_gbps / combined_cpu.read_gbps;
    std::printf("5a. Write-combined pinned memory (cudaHostAllocWriteCombined), %s:\n", size_text(size).c_str());
    lab::Table wc({{"memory", "", false}, {"H2D copy", "GB/s"}, {"CPU writes", "GB/s"}, {"CPU reads", "GB/s"}});
    wc.add_row({"pinned", gbps(static_cast<double>(size), copy_ms), lab::fixed(pinned_cpu.write_gbps, 1),
                lab::fixed(pinned_cpu.read_gbps, 1)});
    wc.add_row({"write-combined", gbps(static_cast<double>(size), combined_h2d), lab::fixed(combined_cpu.write_gbps, 1),
                lab::fixed(combined_cpu.read_gbps, 1)});
    std::printf("%s", wc.render().c_str());
    std::printf(
        "   The CPU does not cache write-combined memory: its writes are gathered and streamed out, its reads\n"
        "   go to memory without the cache's help. It suits a buffer the CPU only fills and the GPU only reads.\n"
        "   Here the CPU read it %.1fx slower than ordinary pinned memory, and the H2D copy from it ran at %.0f %%\n"
        "   of ordinary pinned memory's. Round trip through write-combined memory: %s.\n",
        read_slowdown, 100 * copy_ms / combined_h2d, combined_check.detail().c_str());
    if (read_slowdown < 2) {
      std::printf(
          "   -> no real difference for CPU reads on this machine: the write-combining attribute did not slow them\n"
          "      down, as happens when a virtual machine or the platform does not apply it.\n");
    }
    std::printf("\n");
    report.add_result("write-combined H2D", "GB/s", {lab::gigabytes_per_second(static_cast<double>(size), combined_h2d)},
                      {{"cpu_read_gbps", combined_cpu.read_gbps}, {"cpu_write_gbps", combined_cpu.write_gbps}, {"pinned_cpu_read_gbps", pinned_cpu.read_gbps}, {"pinned_cpu_write_gbps", pinned_cpu.write_gbps}});

    ch06::HostMemory mapped(ch06::HostKind::mapped, size);
    const std::size_t floats = size / sizeof(float);
    std::printf("5b. Mapped (zero-copy) memory (cudaHostAllocMapped), a kernel out[i] = passes x in[i] over %s:\n",
                size_text(size).c_str());
    // Which way won, computed; within 5 % counts as the same.
    auto faster = [](double copy_first, double zero_copy) -> std::string {
      if (zero_copy < 0.95 * copy_first) return "zero-copy, " + lab::fixed(copy_first / zero_copy, 2) + "x";
      if (copy_first < 0.95 * zero_copy) return "copy first, " + lab::fixed(zero_copy / copy_first, 2) + "x";
      return "the same (within 5 %)";
    };
    lab::Table zero({{"input read", "times"}, {"copy, then kernel", "ms"}, {"kernel reads host memory", "ms"},
                     {"faster", "", false}, {"data", "", false}});
    bool zero_correct = true;
    for (int passes : {1, 4}) {
      const ch06::ZeroCopyRun z = ch06::time_zero_copy(mapped, floats, passes, stream, reps);
      zero.add_row({std::to_string(passes), ms(z.copy_then_kernel_ms), ms(z.zero_copy_ms),
                    faster(z.copy_then_kernel_ms, z.zero_copy_ms), z.correct ? "correct" : "WRONG"});
      zero_correct = zero_correct && z.correct;
      if (!z.correct) std::printf("   WRONG: %s\n", z.detail.c_str());
      report.add_result("zero-copy kernel, input read " + std::to_string(passes) + "x", "ms", {z.zero_copy_ms},
                        {{"copy_then_kernel_ms", z.copy_then_kernel_ms}});
    }
    std::printf("%s", zero.render().c_str());
    std::printf(
        "   A kernel can read mapped memory directly: every access crosses the link. Read once, in order, it\n"
        "   saves the separate copy (the kernel's reads are the copy); read several times, it pays the link\n"
        "   every time, while a copy pays it once and then reads device memory at HBM speed.\n\n");
    report.check("write-combined and zero-copy results correct", combined_check.intact && zero_correct,
                 "write-combined round trip: " + combined_check.detail());
    return chapter.finish();
  });
}
