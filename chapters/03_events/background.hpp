/// @file background.hpp
/// @brief What holds whatever the run, one list per section of the chapter
/// page, each line with the documentation that states it (a Runtime API page,
/// a tool's source). lab::Report::add() prints it as background, never as a result.
#pragma once

#include <vector>

#include "report.hpp"

namespace ch03 {

std::vector<lab::Background> stopwatch_background();     ///< 1. what cudaEventRecord and cudaEventSynchronize promise
std::vector<lab::Background> event_cost_background();    ///< 2. the resolution; what cudaEventDisableTiming is for
std::vector<lab::Background> wait_background();          ///< 3. how each wait call waits, by its page
std::vector<lab::Background> free_host_background();     ///< 4. what cudaEventQuery returns
std::vector<lab::Background> launch_gap_background();    ///< 6. what CUPTI records; how others flush the L2
std::vector<lab::Background> many_streams_background();  ///< 7. events in non-NULL streams; no order across streams
std::vector<lab::Background> wrong_stream_background();  ///< 8. what an event captures; non-blocking streams

}  // namespace ch03
