#include "background.hpp"

namespace ch03 {

std::vector<lab::Background> stopwatch_background() {
  return {
      {"cudaEventRecord captures the work queued on the stream at the time of the call; cudaEventSynchronize "
       "waits until all of that work has completed",
       "CUDA Runtime API, cudaEventRecord and cudaEventSynchronize"}};
}

std::vector<lab::Background> event_cost_background() {
  return {{"cudaEventElapsedTime: \"Computes the elapsed time between two events (in milliseconds with a "
           "resolution of around 0.5 microseconds).\" The page says no more of it; the smallest difference between "
           "this run's readings, an upper bound on the step they are graded in, is section 2's finding",
           "CUDA Runtime API, cudaEventElapsedTime"},
          {"an event made with cudaEventDisableTiming records no timing data (cudaEventElapsedTime refuses it); "
           "without cudaEventBlockingSync it gives the best performance with cudaStreamWaitEvent and cudaEventQuery",
           "CUDA Runtime API, cudaEventCreateWithFlags"}};
}

std::vector<lab::Background> wait_background() {
  return {
      {"cudaEventSynchronize: \"Waiting for an event that was created with the cudaEventBlockingSync flag will cause "
       "the calling CPU thread to block until the event has been completed by the device. If the "
       "cudaEventBlockingSync flag has not been set, then the CPU thread will busy-wait until the event has been "
       "completed by the device.\" The driver API's cuEventSynchronize says the same of CU_EVENT_BLOCKING_SYNC; "
       "neither page mentions the device's scheduling flag",
       "CUDA Runtime API, cudaEventSynchronize; CUDA Driver API, cuEventSynchronize; CUDA 13.0"},
      {"cudaStreamSynchronize: \"If the cudaDeviceScheduleBlockingSync flag was set for this device, the host "
       "thread will block until the stream is finished with all of its tasks.\" cudaDeviceSynchronize: \"If the "
       "cudaDeviceScheduleBlockingSync flag was set for this device, the host thread will block until the device "
       "has finished its work.\" The driver API says the same of a context created with "
       "CU_CTX_SCHED_BLOCKING_SYNC (cuStreamSynchronize, cuCtxSynchronize)",
       "CUDA Runtime API, cudaStreamSynchronize and cudaDeviceSynchronize; CUDA Driver API, cuStreamSynchronize "
       "and cuCtxSynchronize; CUDA 13.0"},
      {"cudaSetDeviceFlags: its scheduling flags \"control how the CPU thread interacts with the OS scheduler when "
       "waiting for results from the device\". cudaDeviceScheduleAuto, the default, uses a heuristic on the active "
       "CUDA contexts in the process C and the logical processors P: if C > P the waiting thread yields to other "
       "OS threads, otherwise it actively spins; cudaDeviceScheduleBlockingSync blocks it on a synchronization "
       "primitive \"when waiting for the device to finish work\"",
       "CUDA Runtime API, cudaSetDeviceFlags; CUDA 13.0"},
      {"cudaSetDeviceFlags on a device already initialised overwrites its previous flags (CUDA 12 and 13 wording; "
       "earlier references said the call failed with cudaErrorSetOnActiveProcess); on a device not yet "
       "initialised it initialises it with the flags",
       "CUDA Runtime API, cudaSetDeviceFlags"}};
}

std::vector<lab::Background> free_host_background() {
  return {
      {"cudaEventQuery returns cudaSuccess if all the work the event captured has completed, and "
       "cudaErrorNotReady if any of it is incomplete",
       "CUDA Runtime API, cudaEventQuery"}};
}

std::vector<lab::Background> launch_gap_background() {
  return {{"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL records each kernel's start and end timestamps, in ns, without "
           "breaking kernel concurrency (CUPTI_ACTIVITY_KIND_KERNEL would serialise kernels)",
           "CUPTI, cupti_activity.h, CUpti_ActivityKind"},
          {"nvbench's cold measurement, before every sample: one cudaMemsetAsync over a buffer the size of the L2 "
           "(1x, cudaDevAttrL2CacheSize), a stream synchronisation, then its blocking kernel holds the stream while "
           "the timer events and the kernel are queued",
           "NVIDIA nvbench, nvbench/detail/l2flush.cuh and measure_cold.cuh"},
          {"triton's do_bench zeroes a 256 MiB buffer before every timed call, queued ahead of the start event "
           "(int(256e6) bytes in older releases, 256 * 1024 * 1024 in current ones)",
           "triton, python/triton/testing.py do_bench and the backends' get_empty_cache_for_benchmark"},
          {"this chapter's flush is lab::L2Flusher's flush: it resets persisting L2 lines at the call (not in "
           "stream order), then queues a cudaMemsetAsync over a buffer of twice the L2; as in nvbench it is "
           "synchronised before the stream is held. Chapter 07 measures it against a read flush",
           "this repository, common/l2_flush.cuh"}};
}

std::vector<lab::Background> many_streams_background() {
  return {{"if either event was last recorded in a non-NULL stream, cudaEventElapsedTime may read more than expected, "
           "even if both used the same stream: any number of other operations can run between the two events",
           "CUDA Runtime API, cudaEventElapsedTime"},
          {"\"Different streams, on the other hand, may execute their commands out of order with respect to one "
           "another or concurrently; this behavior is not guaranteed and should therefore not be relied upon for "
           "correctness\": so the whole is read from the earliest begin event, which need not be the first recorded",
           "CUDA C++ Programming Guide, Asynchronous Concurrent Execution: Streams"}};
}

std::vector<lab::Background> wrong_stream_background() {
  return {{"cudaEventRecord: \"Captures in event the contents of stream at the time of this call.\" cudaEventQuery and "
           "cudaEventSynchronize then examine or wait for that captured work only: an event on another stream "
           "captures none of the timed work",
           "CUDA Runtime API, cudaEventRecord"},
          {"an event on stream 0 waits for what stream 0 waits for. The legacy default stream \"synchronizes with all "
           "other streams in the same CUcontext except for non-blocking streams\"; the per-thread default stream "
           "(--default-stream per-thread) \"does not synchronize with other streams (just like explicitly created "
           "streams)\", only with the legacy one. So the 12.x Guide's \"Events in stream zero are completed after all "
           "preceding tasks and commands in all streams are completed\" holds only where stream 0 is the legacy "
           "default stream, and then for blocking streams only: an event on stream 0 waits for neither of this "
           "section's streams",
           "CUDA Runtime API, 3. Stream synchronization behavior (Legacy default stream, Per-thread default stream); "
           "CUDA Programming Guide, 2.3.6 Blocking and non-blocking streams and the default stream; CUDA C++ "
           "Programming Guide 12.x, Asynchronous Concurrent Execution: Events"},
          {"cudaStreamNonBlocking: \"work running in the created stream may run concurrently with work in stream 0 "
           "(the NULL stream), and ... the created stream should perform no implicit synchronization with stream 0\"; "
           "\"the blocking and non-blocking semantics refer only to how the streams synchronize with the default "
           "stream\". The mistake pair is ordered against nothing because no wait orders it, not because of the "
           "flag; the fork-and-join row orders the two streams with cudaStreamWaitEvent at each end",
           "CUDA Runtime API, cudaStreamCreateWithFlags; CUDA Programming Guide, 2.3.6 Blocking and non-blocking "
           "streams and the default stream"}};
}

}  // namespace ch03
