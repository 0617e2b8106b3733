// Result files (output_file.hpp): checked before any GPU work, written whole or
// not at all. Each test works in a fresh folder under the system's temp folder.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "output_file.hpp"
#include "support/skip.hpp"

namespace {

namespace fs = std::filesystem;

/// A new empty folder, removed with what is in it at the end of the test.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "lab_output_file_test.XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = buffer.data();
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }
  /// The names in the folder (a temporary file left behind would show here).
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) names.push_back(entry.path().filename().string());
    return names;
  }

 private:
  std::string path_;
};

std::string read(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check_output_file: a new file, or an existing one, in a writable folder is fine") {
  TempFolder folder;
  CHECK(lab::check_output_file(folder / "new.json") == "");
  std::ofstream(folder / "old.json") << "earlier run";
  CHECK(lab::check_output_file(folder / "old.json") == "");
  CHECK(folder.names() == std::vector<std::string>{"old.json"});  // the probe file is gone
  CHECK(read(folder / "old.json") == "earlier run");              // and the file untouched
}

TEST_CASE("check_output_file: a missing folder, or a file where the folder should be") {
  TempFolder folder;
  const std::string missing = lab::check_output_file(folder / "no_such_folder/x.json");
  CHECK(contains(missing, "folder '" + (folder / "no_such_folder") + "' does not exist"));
  std::ofstream(folder / "plain_file") << "x";
  CHECK(contains(lab::check_output_file(folder / "plain_file/x.json"), "is not a folder"));
  CHECK(lab::check_output_file("") == "no file name given");
}

TEST_CASE("check_output_file: a folder is not a file") {
  TempFolder folder;
  CHECK(contains(lab::check_output_file(folder.path()), "names a folder, not a file"));
  CHECK(contains(lab::check_output_file(folder.path() + "/"), "names a folder, not a file"));
  CHECK(contains(lab::check_output_file("/"), "names a folder, not a file"));
  CHECK(contains(lab::check_output_file("."), "names a folder, not a file"));
}

TEST_CASE("check_output_file: a device is not a result file (/dev/full takes nothing, /dev/null keeps nothing)") {
  CHECK(contains(lab::check_output_file("/dev/full"), "not a regular file"));
  CHECK(contains(lab::check_output_file("/dev/null"), "not a regular file"));
}

TEST_CASE("check_output_file: no file can be created in /proc, not even by root") {
  CHECK(contains(lab::check_output_file("/proc/x.json"), "no file can be created in folder '/proc'"));
}

TEST_CASE("check_output_file: a read-only folder") {
  if (::geteuid() == 0) {
    lab_test::skip("running as root, who can write into a read-only folder");
  }
  TempFolder folder;
  fs::permissions(folder.path(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  CHECK(contains(lab::check_output_file(folder / "x.json"), "no file can be created in folder"));
}

TEST_CASE("write_file_atomically: writes the whole text, with the mode a new file gets") {
  TempFolder folder;
  lab::write_file_atomically(folder / "out.json", "{\"passed\": true}\n");
  CHECK(read(folder / "out.json") == "{\"passed\": true}\n");
  CHECK(folder.names() == std::vector<std::string>{"out.json"});
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info{};
  REQUIRE(::stat((folder / "out.json").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == (0666 & ~mask));  // not mkstemp's 0600
}

TEST_CASE("write_file_atomically: a complete write replaces the earlier file") {
  TempFolder folder;
  std::ofstream(folder / "out.json") << "earlier run";
  const std::string text(100000, 'x');
  lab::write_file_atomically(folder / "out.json", text);
  CHECK(read(folder / "out.json") == text);
  CHECK(folder.names() == std::vector<std::string>{"out.json"});
}

TEST_CASE("write_file_atomically: a write that fails half-way keeps the earlier file and leaves nothing behind") {
  TempFolder folder;
  std::ofstream(folder / "out.json") << "earlier run";
  // A file-size limit makes write() fail with EFBIG part of the way through,
  // for root too (SIGXFSZ ignored, so that the failure is an error, not a kill).
  rlimit old_limit{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old_limit;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string message;
  try {
    lab::write_file_atomically(folder / "out.json", std::string(100000, 'x'));
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK(contains(message, "cannot write '" + (folder / "out.json") + "': writing failed after 4096 of 100000 bytes"));
  CHECK(read(folder / "out.json") == "earlier run");
  CHECK(folder.names() == std::vector<std::string>{"out.json"});
}

TEST_CASE("write_file_atomically: a folder removed between the check and the write") {
  TempFolder folder;
  const std::string inner = folder / "results";
  fs::create_directory(inner);
  REQUIRE(lab::check_output_file(inner + "/out.json") == "");
  fs::remove(inner);
  CHECK_THROWS_WITH_AS(lab::write_file_atomically(inner + "/out.json", "text"),
                       doctest::Contains("cannot create a temporary file in folder"), std::runtime_error);
  CHECK(folder.names().empty());
}

TEST_CASE("write_file_atomically: a target that is a folder stays a folder, and nothing is left behind") {
  TempFolder folder;
  fs::create_directory(folder / "out.json");
  std::ofstream(folder / "out.json/kept") << "inside";
  CHECK_THROWS_WITH_AS(lab::write_file_atomically(folder / "out.json", "text"),
                       doctest::Contains("renaming the complete temporary file over it failed"), std::runtime_error);
  CHECK(fs::is_directory(folder / "out.json"));
  CHECK(read(folder / "out.json/kept") == "inside");
  CHECK(folder.names() == std::vector<std::string>{"out.json"});
}
