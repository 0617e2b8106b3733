#include "child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

#include "fields.hpp"

extern char** environ;  // the environment the child process inherits

namespace lab {

namespace {

// "NAME" of an entry "NAME=value".
std::string variable_name(const std::string& entry) { return entry.substr(0, entry.find('=')); }

// This process's environment with @p extra applied: "NAME=value" replaces or
// adds NAME, a bare "NAME" removes it.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> entries;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    bool replaced = false;
    for (const std::string& x : extra) replaced = replaced || variable_name(x) == variable_name(entry);
    if (!replaced) entries.push_back(entry);
  }
  for (const std::string& x : extra)
    if (x.find('=') != std::string::npos) entries.push_back(x);
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& words) {
  std::vector<char*> list;
  for (std::string& w : words) list.push_back(w.data());
  list.push_back(nullptr);
  return list;
}

}  // namespace

ChildOutput run_child(const std::string& program, const std::vector<std::string>& arguments, double timeout_s,
                      const std::vector<std::string>& environment) {
  ChildOutput out;
  const std::string name = program.substr(program.rfind('/') + 1);
  if (access(program.c_str(), X_OK) != 0) {
    out.error = "no executable at " + program + " (build the target " + name + ")";
    return out;
  }
  int fds[2];
  if (pipe(fds) != 0) {
    out.error = std::string("pipe failed: ") + std::strerror(errno);
    return out;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<std::string> words{program};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv = pointers(words);
  std::vector<std::string> variables = child_environment(environment);
  std::vector<char*> envp = pointers(variables);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    out.error = std::string("posix_spawn failed: ") + std::strerror(spawned);
    return out;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool timed_out = false;
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd readable{fds[0], POLLIN, 0};
    const int ready = poll(&readable, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const ssize_t got = read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of output: the child closed its side
    out.text.append(buffer, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (timed_out) out.error = name + " did not finish within " + fixed(timeout_s, 0) + " s";
  return out;
}

std::string child_failure(const std::string& name, const ChildOutput& out, std::size_t tail) {
  if (!out.error.empty()) return out.error;
  std::string said = out.text;
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  return name + " exited with code " + std::to_string(out.exit_code) +
         (said.empty() ? "" : ": " + said.substr(said.size() > tail ? said.size() - tail : 0));
}

bool find_child_line(const std::string& text, const std::string& tag, const std::function<bool(std::istream&)>& read) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first;
    if (words >> first && first == tag && read(words)) return true;
  }
  return false;
}

std::string program_beside_this_one(const std::string& name) {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return name;
  const std::string self(path, static_cast<std::size_t>(length));
  return self.substr(0, self.rfind('/') + 1) + name;
}

}  // namespace lab
