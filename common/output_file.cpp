#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace lab {

namespace {

/// A path cut at its last '/': the folder ("." when there is none) and the name.
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

std::string system_error_text(int error) { return std::strerror(error); }

/// Creates a new, empty file beside the target (same folder, so that rename()
/// replaces the target in one step: a rename never crosses file systems).
/// Returns its descriptor and sets @p temp_path, or returns -1 with errno set.
int create_temporary(const Place& place, std::string& temp_path) {
  // A hidden name that says whose it is, short enough for any file system's
  // 255-byte limit on a name.
  std::string pattern = place.folder + "/." + place.name.substr(0, 64) + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = ::mkstemp(buffer.data());
  if (fd >= 0) temp_path = buffer.data();
  return fd;
}

/// Writes all of @p text; returns "" or what went wrong.
std::string write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0) {
      if (errno == EINTR) continue;
      return "writing failed after " + std::to_string(done) + " of " + std::to_string(text.size()) +
             " bytes: " + system_error_text(errno);
    }
    done += static_cast<std::size_t>(written);
  }
  return "";
}

/// The mode a file created by open() would get (0666 less the umask): mkstemp
/// creates 0600, which would hide a result file from the other users of a machine.
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

  struct stat info {};
  if (::stat(place.folder.c_str(), &info) != 0) {
    if (errno == ENOENT) return cannot_write(path, "folder '" + place.folder + "' does not exist");
    return cannot_write(path, "folder '" + place.folder + "' cannot be reached (" + system_error_text(errno) + ")");
  }
  if (!S_ISDIR(info.st_mode)) return cannot_write(path, "'" + place.folder + "' is not a folder");

  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return cannot_write(path, "it names a folder, not a file");
    // A device (/dev/full, /dev/null), a pipe or a socket: renaming a result
    // over it would replace it, and writing into it is not keeping a result.
    if (!S_ISREG(info.st_mode)) return cannot_write(path, "it is not a regular file (a device, a pipe or a socket)");
  } else if (errno != ENOENT) {
    return cannot_write(path, system_error_text(errno));
  }

  // Permission bits do not answer "can a file be created here?": root passes
  // every access() check, yet cannot create files in /proc. Creating one can.
  std::string temp_path;
  const int fd = create_temporary(place, temp_path);
  if (fd < 0) {
    return cannot_write(path,
                        "no file can be created in folder '" + place.folder + "' (" + system_error_text(errno) + ")");
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
    throw std::runtime_error(cannot_write(
        path, "cannot create a temporary file in folder '" + place.folder + "': " + system_error_text(errno)));
  }
  std::string error = write_all(fd, text);
  if (error.empty() && ::fchmod(fd, new_file_mode()) != 0) error = "fchmod failed: " + system_error_text(errno);
  // fsync before the rename: after a crash the name then points at the whole
  // text, never at an empty file whose data had not reached the disk yet.
  if (error.empty() && ::fsync(fd) != 0) error = "fsync failed: " + system_error_text(errno);
  if (::close(fd) != 0 && error.empty()) error = "close failed: " + system_error_text(errno);
  if (error.empty() && ::rename(temp_path.c_str(), path.c_str()) != 0) {
    error = "renaming the complete temporary file over it failed: " + system_error_text(errno);
  }
  if (!error.empty()) {
    ::unlink(temp_path.c_str());
    throw std::runtime_error(cannot_write(path, error));
  }
}

}  // namespace lab
