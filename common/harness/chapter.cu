#include <cstdio>
#include <cstdlib>

#include "chapter.cuh"
#include "clock.cuh"
#include "program.hpp"

namespace lab {

Chapter::Chapter(std::string program, std::string title, std::string description)
    : program_(std::move(program)),
      title_(std::move(title)),
      options_(program_, std::move(description)),
      report_("", {}, {}) {
  options_.add_output_file("json", &json_path_, "write the results as JSON to this file")
      .add_flag("instrumented", &instrumented_,
                "the run is under a sanitizer or profiler: report timing checks as not judged\n"
                "(detected when CUDA_INJECTION64_PATH or NVTX_INJECTION64_PATH is set, as Nsight and\n"
                "compute-sanitizer do)");
}

void Chapter::add_timeline_options() {
  options_.add_flag("timeline", &timeline_chart_, "print a CUPTI timeline of the GPU's work after each variant")
      .add_output_file("trace", &trace_path_,
                       "write the recorded variants as a Chrome trace (open in ui.perfetto.dev)");
}

bool Chapter::start(int argc, const char* const* argv) {
  if (options_.parse(argc, argv) == Options::Parsed::help) return false;
  // Nsight Compute and Systems set CUDA_INJECTION64_PATH; compute-sanitizer
  // (CUDA 13.0) sets NVTX_INJECTION64_PATH=libsanitizer-collection.so.
  for (const char* variable : {"CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') instrumented_ = true;
  }
  device_ = require_device();
  timeline_.configure(timeline_chart_, trace_path_, device_.name);
  const std::string chapter_id = program_.rfind("ch", 0) == 0 ? program_.substr(2) : program_;
  report_ = Report(chapter_id, device_.fields(), options_.fields(), instrumented_);

  std::printf("%s\n%s\n%s", title_.c_str(), std::string(title_.size(), '=').c_str(), device_.summary().c_str());
  // The program measures; the page explains: why, the documentation, the kept runs.
  std::printf("  the page, section by section (why, sources, two GPUs' runs): chapters/%s/README.md\n",
              chapter_id.c_str());
  if (instrumented_) std::printf("  instrumented run: timing checks are reported as not judged\n");
  return true;
}

double Chapter::measure_sm_clock() {
  const double mhz = measure_sm_clock_mhz();
  report_.add_device_field({"measured_sm_clock_mhz", mhz});
  std::printf("  SM clock measured in a kernel: %.0f MHz\n", mhz);
  return mhz;
}

void Chapter::require_memory(const MemoryNeed& need) const {
  const std::string problem = check_memory_fits(need, device_.free_memory_bytes, available_host_memory_bytes());
  if (!problem.empty()) throw UsageError(problem);
}

}  // namespace lab
