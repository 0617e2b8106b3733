/// @file chapter.cuh
/// @brief The frame every chapter's main() shares: options (with `--json`),
/// the device check, the header, the report and the exit code.
///
/// @code
///   return lab::run_program("ch01_kernel_launch", [&] {
///     lab::Chapter chapter("ch01_kernel_launch", "Chapter 01: kernel launch", "What it shows.");
///     chapter.options().add("n", &n, 1, max_n, "elements");
///     if (!chapter.start(argc, argv)) return 0;  // --help was printed
///     chapter.report().section("1. ...");
///     chapter.report().add(ch01::variants_table(ch01::compare_variants(...)));  // data in, table out
///     return chapter.finish();
///   });
/// @endcode
#pragma once

#include <string>

#include "command_line.hpp"
#include "cupti_timeline.cuh"
#include "device.cuh"
#include "memory_fit.hpp"
#include "report.hpp"

namespace lab {

/// One chapter's run, from the command line to the exit code.
class Chapter {
 public:
  /// @p program is the executable's name, @p title is printed at the top, @p description by `--help`.
  Chapter(std::string program, std::string title, std::string description);

  /// The option table; `--json` is already in it.
  Options& options() { return options_; }

  /// Parses the command line (throws lab::UsageError), requires a device
  /// (throws lab::NoDeviceError), prints the title and the device. Queues no
  /// GPU work. Returns false when `--help` was printed (exit with code 0).
  bool start(int argc, const char* const* argv);

  /// Refuses the run (throws lab::UsageError, exit 2) before anything is
  /// allocated when @p need does not fit in the device's free memory and the
  /// host's available memory. Every chapter checks its memory this way, with the
  /// need computed by its options file (CPU-tested).
  void require_memory(const MemoryNeed& need) const;

  /// Measures the SM clock in a kernel (lab::measure_sm_clock_mhz), prints it and
  /// records it with the device. Runs GPU work: call it where that disturbs nothing.
  double measure_sm_clock();

  /// Is the run under compute-sanitizer or Nsight, so timing checks are not
  /// judged? `--instrumented`, or a variable those tools set.
  bool instrumented() const { return instrumented_; }

  /// Adds `--timeline` (a chart per variant) and `--trace PATH` (a Chrome
  /// trace) to the options; call before start().
  void add_timeline_options();
  /// The timeline session; does nothing unless one of those options was given.
  TimelineSession& timeline() { return timeline_; }

  const DeviceInfo& device() const { return device_; }  ///< the device in use (after start())
  Report& report() { return report_; }                  ///< where results go (after start())
  /// Writes the trace and the JSON when asked for and returns the exit code (0 or 1).
  int finish() {
    timeline_.write();
    return report_.finish(json_path_);
  }

 private:
  std::string program_;
  std::string title_;
  Options options_;
  std::string json_path_;
  bool instrumented_ = false;
  bool timeline_chart_ = false;
  std::string trace_path_;
  TimelineSession timeline_;
  DeviceInfo device_;
  Report report_;
};

}  // namespace lab
