#include "output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace lab {

namespace {

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Creates an empty temporary file beside @p path; returns its name, or "" with errno set.
std::string make_temporary(const std::string& path, int* fd) {
  std::string name = folder_of(path) + "/.lab-write-XXXXXX";
  *fd = mkstemp(name.data());
  return *fd < 0 ? "" : name;
}

}  // namespace

std::string check_output_file(const std::string& path) {
  if (path.empty()) return "an empty path";
  if (path.back() == '/') return path + " is a folder, not a file";
  const std::string folder = folder_of(path);
  struct stat info {};
  if (stat(folder.c_str(), &info) != 0) return "its folder " + folder + " does not exist";
  if (!S_ISDIR(info.st_mode)) return folder + " is not a folder";
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return path + " exists and is not a regular file";
  }
  int fd = -1;
  const std::string temporary = make_temporary(path, &fd);
  if (temporary.empty()) return "no file can be created in " + folder + " (" + std::strerror(errno) + ")";
  close(fd);
  unlink(temporary.c_str());
  return "";
}

void write_file_atomically(const std::string& path, const std::string& text) {
  int fd = -1;
  const std::string temporary = make_temporary(path, &fd);
  if (temporary.empty()) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  const int saved = errno;
  const bool ok = written == text.size() && fsync(fd) == 0 && close(fd) == 0;
  if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(ok ? errno : saved);
    unlink(temporary.c_str());
    throw std::runtime_error("cannot write " + path + ": " + reason + " (an earlier " + path + " is left as it was)");
  }
  chmod(path.c_str(), 0644);
}

}  // namespace lab
