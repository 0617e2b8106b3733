#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace lab {

namespace {

std::string errno_text() { return std::strerror(errno); }

// A path cut at its last '/': the folder ("." when there is none) and the name.
struct Place {
  std::string folder;
  std::string name;
};

Place place_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

bool names_a_folder(const Place& place) { return place.name.empty() || place.name == "." || place.name == ".."; }

std::string cannot_write(const std::string& path, const std::string& why) {
  return "cannot write '" + path + "': " + why;
}

// Creates a new, empty, hidden file beside the target (in its folder, so that
// rename() never crosses file systems); returns -1 with errno set on failure.
// The name is cut to stay under any file system's 255-byte limit.
int create_temporary(const Place& place, std::string& temp_path) {
  temp_path = place.folder + "/." + place.name.substr(0, 64) + ".XXXXXX";
  return ::mkstemp(temp_path.data());
}

// Writes all of @p text; returns "" or what went wrong.
std::string write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0) {
      if (errno == EINTR) continue;
      return "writing failed after " + std::to_string(done) + " of " + std::to_string(text.size()) +
             " bytes: " + errno_text();
    }
    done += static_cast<std::size_t>(written);
  }
  return "";
}

// The mode open() would give (0666 less the umask): mkstemp's 0600 would hide
// a result file from the other users of a machine.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

}  // namespace

std::string check_output_file(const std::string& path) {
  if (path.empty()) return "no file name given";
  const Place place = place_of(path);
  if (names_a_folder(place)) return cannot_write(path, "it names a folder, not a file");

  struct stat info{};
  if (::stat(place.folder.c_str(), &info) != 0) {
    if (errno == ENOENT) return cannot_write(path, "folder '" + place.folder + "' does not exist");
    return cannot_write(path, "folder '" + place.folder + "' cannot be reached (" + errno_text() + ")");
  }
  if (!S_ISDIR(info.st_mode)) return cannot_write(path, "'" + place.folder + "' is not a folder");

  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return cannot_write(path, "it names a folder, not a file");
    // Renaming a result over a device (/dev/null), a pipe or a socket would replace it.
    if (!S_ISREG(info.st_mode)) return cannot_write(path, "it is not a regular file (a device, a pipe or a socket)");
  } else if (errno != ENOENT) {
    return cannot_write(path, errno_text());
  }

  // Permission bits do not answer "can a file be created here?": root passes
  // every access() check, yet cannot create files in /proc. Creating one can.
  std::string temp_path;
  const int fd = create_temporary(place, temp_path);
  if (fd < 0) {
    return cannot_write(path, "no file can be created in folder '" + place.folder + "' (" + errno_text() + ")");
  }
  ::close(fd);
  ::unlink(temp_path.c_str());
  return "";
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const Place place = place_of(path);
  if (path.empty()) throw std::runtime_error("cannot write a file without a name");
  if (names_a_folder(place)) throw std::runtime_error(cannot_write(path, "it names a folder, not a file"));

  std::string temp_path;
  const int fd = create_temporary(place, temp_path);
  if (fd < 0) {
    throw std::runtime_error(
        cannot_write(path, "cannot create a temporary file in folder '" + place.folder + "': " + errno_text()));
  }
  std::string error = write_all(fd, text);
  if (error.empty() && ::fchmod(fd, new_file_mode()) != 0) error = "fchmod failed: " + errno_text();
  // fsync before the rename: after a crash the name never points at an empty file.
  if (error.empty() && ::fsync(fd) != 0) error = "fsync failed: " + errno_text();
  if (::close(fd) != 0 && error.empty()) error = "close failed: " + errno_text();
  if (error.empty() && ::rename(temp_path.c_str(), path.c_str()) != 0) {
    error = "renaming the complete temporary file over it failed: " + errno_text();
  }
  if (!error.empty()) {
    ::unlink(temp_path.c_str());
    throw std::runtime_error(cannot_write(path, error));
  }
}

}  // namespace lab
