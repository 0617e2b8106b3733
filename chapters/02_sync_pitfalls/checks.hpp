/// @file checks.hpp
/// @brief Chapter 02's checks: pure functions of the data (data.hpp) that judge it, and the
/// documented expectations they judge it by, CPU-tested in tests/ch02_checks_test.cpp. What
/// the CUDA documentation says of each call, and why the calls behave as they do, is on the
/// chapter page (README.md), with its sources.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch02 {

// --- Sections 1 and 2: a host timer around a kernel, four ways --------------

/// Did the first reading exceed the median by half the backlog in flight or more (a backlog of 0.01 ms or more)?
bool first_run_held_backlog(const CaseRun& run);
/// What the timer of @p run contained, from its readings against @p held_ms, the median of events on a held
/// stream around the kernel: the launch call, or launch + kernel + sync (with the backlog); "-" without readings.
std::string timer_contents(const CaseRun& run, double held_ms);
/// The kernel's output was correct after every case (when checked).
std::vector<lab::Finding> host_timer_checks(const HostTimerRun& run);
/// host_timer_checks(), and: without a sync after the launch the timer reads under a tenth (timing).
std::vector<lab::Finding> long_kernel_checks(const HostTimerRun& run);

// --- Section 3: which calls wait for queued work, and on what condition ------

// What the CUDA Runtime API documents ("2. API synchronization behavior", "3. Stream
// synchronization behavior"; quoted on the page), as the expectations the checks judge.

/// Does @p call queue work (a kernel, a copy)? cudaMalloc and cudaFree queue nothing.
bool queues_work(HostCall call);
/// Does stream 0, as the calling code was built, wait for the work? (a) and (d): yes; (b) and (c): no.
bool stream_zero_waits_for_work(WorkSetup setup);
/// Does what @p call queues (a kernel, a copy) run after the work? Stream 0's calls when stream 0 waits for the
/// work, the read on the work's own stream always; cudaMalloc and cudaFree queue nothing: false.
bool ordered_after_work(HostCall call, WorkSetup setup);
/// Is the host promised to wait for the work in @p call? cudaMemcpy to the host when its copy is ordered after
/// the work ("returns once the copy has completed"), and the read that synchronises the work's own stream.
/// Any other call may or may not wait: not promised.
bool promised_wait(HostCall call, WorkSetup setup);
/// Did the call wait for the queued work? The work was done when it returned, and it took half the work's time
/// longer than alone or more (so a call slow by itself, a large pageable copy, does not count).
bool waited_for_work(const CallProbe& probe);

/// One setup's checks, each left out with no call to judge: the calls documented to wait did (timing: only a
/// promised wait is judged, as any call may block); what runs after the work read its result (correctness).
std::vector<lab::Finding> implicit_sync_checks(const ImplicitSyncRun& run, WorkSetup setup);

// --- Section 4: where the CPU work goes --------------------------------------

/// Both results correct; CPU work placed before the read finished sooner by half
/// the shorter piece of work or more (timing).
std::vector<lab::Finding> placement_checks(const Placement& placement);

}  // namespace ch02
