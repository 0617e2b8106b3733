// ch11_host_call_child: a child process of chapter 11, section 4.
//
// Queues a host function that makes one CUDA call (ch11::probe_host_call), then
// synchronises its stream, and prints one line: what the call returned and what
// the synchronisation returned. A call that waits for ever keeps this process
// waiting: the chapter stops it and says so.
//
//   usage: ch11_host_call_child stream_query|memset_async|malloc|sync_own_stream
#include <algorithm>
#include <cstdio>
#include <string>

#include "host_calls.cuh"
#include "program.hpp"

int main(int argc, char** argv) {
  return lab::run_program("ch11_host_call_child", [&] {
    const auto& names = ch11::host_call_names();
    if (argc != 2 || std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::fprintf(stderr, "usage: ch11_host_call_child stream_query|memset_async|malloc|sync_own_stream\n");
      return lab::exit_code::usage;
    }
    std::printf("%s\n", ch11::host_call_line(ch11::probe_host_call(argv[1])).c_str());
    std::fflush(stdout);
    return lab::exit_code::success;
  });
}
