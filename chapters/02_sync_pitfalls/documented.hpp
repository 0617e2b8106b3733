/// @file documented.hpp
/// @brief What the CUDA documentation says each host call of section 3 does in
/// each setup: when it returns, whether the host waits in it for the work queued
/// before it, and whether what it queues runs after that work. The expectations
/// section 3's findings and tests judge a run against (CUDA Runtime API,
/// "2. API synchronization behavior" and "3. Stream synchronization behavior").
/// documented.cpp also holds the background lines findings.hpp declares.
#pragma once

#include "findings.hpp"

namespace ch02 {

/// Does stream 0, as the calling code was built, wait for the work? (a) and (d): yes; (b) and (c): no.
bool stream_zero_waits_for_work(WorkSetup setup);

/// What the CUDA documentation says about one question.
enum class Documented {
  yes,          ///< documented to
  no,           ///< documented not to
  may,          ///< the documentation says it may
  unspecified,  ///< the call's API page says nothing (any call may block when internal resources run out)
  not_applicable
};

const char* documented_text(Documented d);          ///< "yes", "no", "may", "not said (API page)" or "-"
const char* documented_return_text(HostCall call);  ///< when the call returns, e.g. "after its copy"
/// Does what the call queues (a kernel, a copy) run after the queued work?
Documented documented_order(HostCall call, WorkSetup setup);
/// Does the host wait for the queued work in this call? A copy the call waits
/// for waits for the work exactly when the copy is ordered after it.
Documented documented_wait(HostCall call, WorkSetup setup);

}  // namespace ch02
