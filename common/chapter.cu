#include <cstdio>

#include "chapter.cuh"
#include "clock.cuh"

namespace lab {

Chapter::Chapter(std::string program, std::string title, std::string description)
    : program_(std::move(program)),
      title_(std::move(title)),
      options_(program_, std::move(description)),
      report_("", Json(), Json()) {
  options_.add_output_file("json", &json_path_, "write the results as JSON to this file");
}

void Chapter::add_timeline_options() {
  options_.add_flag("timeline", &timeline_chart_, "print a CUPTI timeline of the GPU's work after each variant")
      .add_output_file("trace", &trace_path_, "write the recorded variants as a Chrome trace (open in ui.perfetto.dev)");
}

bool Chapter::start(int argc, const char* const* argv) {
  if (options_.parse(argc, argv) == Options::Parsed::help) return false;
  device_ = require_device();
  timeline_.configure(timeline_chart_, trace_path_, device_.name);
  // The SM clock this run actually got: nominal clocks say nothing about
  // throttling or power-saving states, so every report records the measured one.
  const double measured_mhz = measure_sm_clock_mhz();
  Json device = device_.to_json();
  device.set("measured_sm_clock_mhz", measured_mhz);
  const std::string chapter_id = program_.rfind("ch", 0) == 0 ? program_.substr(2) : program_;
  // Bridge until the report takes lab::Fields: the options as the old lab::Json.
  Json options = Json::object();
  for (const Field& field : options_.fields()) {
    const Value& v = field.value;
    if (v.type() == Value::Type::text) {
      options.set(field.key, v.text());
    } else if (v.type() == Value::Type::boolean) {
      options.set(field.key, v.boolean());
    } else {
      options.set(field.key, v.number());
    }
  }
  report_ = Report(chapter_id, device, options);

  std::printf("%s\n%s\n%s", title_.c_str(), std::string(title_.size(), '=').c_str(), device_.summary().c_str());
  std::printf("  SM clock measured in a kernel: %.0f MHz\n\n", measured_mhz);
  return true;
}

}  // namespace lab
