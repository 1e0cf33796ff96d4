#include "core/files/confined_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

namespace lb::files {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int release() { return std::exchange(fd, -1); }
};

// ERR: the errno of the call that failed, taken before anything else could change it.
bool fail(std::string* error, const std::string& what, int err = errno) {
  if (error) *error = what + ": " + std::strerror(err);
  return false;
}

bool refuse(std::string* error, const std::string& what) {
  if (error) *error = what;
  return false;
}

// A folder that could not be opened: a link or a non-folder is refused as such; anything else
// (no descriptor left, no permission) is said as it is, not blamed on a link.
bool fail_folder(std::string* error, int err, const std::string& folder,
                 const std::string& context) {
  if (err == ELOOP || err == ENOTDIR)
    return refuse(error, context + folder + " is a link or not a folder");
  return fail(error, context + "cannot open " + folder, err);
}

// RELATIVE's parts, or none when one of them could name something outside the folder.
std::vector<std::string> plain_parts(const std::string& relative) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= relative.size()) {
    const size_t slash = std::min(relative.find('/', start), relative.size());
    std::string part = relative.substr(start, slash - start);
    if (part.empty() || part == "." || part == ".." || part.find('\0') != std::string::npos)
      return {};
    parts.push_back(std::move(part));
    start = slash + 1;
  }
  return parts;
}

// Opens folder NAME in DIR (creating it), refusing a link.
int enter(int dir, const std::string& name) {
  if (::mkdirat(dir, name.c_str(), 0755) != 0 && errno != EEXIST) return -1;
  return ::openat(dir, name.c_str(), kDirFlags);
}

int open_root(const std::string& root, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path = fs::path(root).lexically_normal();
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();  // "run/"
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    return fail(error, "cannot create " + root, errno), -1;
  const int fd = ::open(path.c_str(), kDirFlags);
  if (fd < 0) fail_folder(error, errno, root, "");
  return fd;
}

// The folder that holds the last of PARTS, entered part by part from ROOT; -1 with *error.
int open_parent(const std::string& root, const std::vector<std::string>& parts,
                const std::string& relative, std::string* error) {
  Fd dir(open_root(root, error));
  if (dir.fd < 0) return -1;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    Fd next(enter(dir.fd, parts[i]));
    if (next.fd < 0) {
      const int err = errno;
      return fail_folder(error, err, parts[i],
                         "refused to write " + relative + " in " + root + ": "),
             -1;
    }
    std::swap(dir.fd, next.fd);
  }
  return dir.release();
}

bool write_all(int fd, std::string_view content) {
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool write_confined(const std::string& root, const std::string& relative, std::string_view content,
                    std::string* error) {
  return write_confined_pieces(
      root, relative, [content](const PieceWriter& write) { return write(content); }, error);
}

bool write_confined_pieces(const std::string& root, const std::string& relative,
                           const std::function<bool(const PieceWriter& write)>& produce,
                           std::string* error) {
  const std::vector<std::string> parts = plain_parts(relative);
  if (parts.empty()) return refuse(error, "refused to write '" + relative + "': not a plain name");
  Fd dir(open_parent(root, parts, relative, error));
  if (dir.fd < 0) return false;
  const std::string& name = parts.back();
  // Unique per process and write: O_EXCL refuses anything already there, a planted link too.
  static std::atomic<unsigned> writes{0};
  const std::string tmp =
      "." + name + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(writes++);
  const std::string shown = root + "/" + relative;
  Fd out(::openat(dir.fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (out.fd < 0) return fail(error, "cannot create a temporary file for " + shown);
  bool written = true;
  const PieceWriter write = [&](std::string_view piece) {
    written = written && write_all(out.fd, piece);
    return written;
  };
  if (!produce(write) || !written) {
    const int saved = errno;
    ::unlinkat(dir.fd, tmp.c_str(), 0);
    errno = saved;
    return written ? refuse(error, "cannot write " + shown + ": its content could not be made")
                   : fail(error, "cannot write " + shown);
  }
  ::fsync(out.fd);
  // rename replaces a link at NAME itself; it never writes through it.
  if (::renameat(dir.fd, tmp.c_str(), dir.fd, name.c_str()) != 0) {
    const int saved = errno;
    ::unlinkat(dir.fd, tmp.c_str(), 0);
    errno = saved;
    return fail(error, "cannot rename onto " + shown);
  }
  return true;
}

int open_confined_append(const std::string& root, const std::string& relative, std::string* error) {
  const std::vector<std::string> parts = plain_parts(relative);
  if (parts.empty())
    return refuse(error, "refused to open '" + relative + "': not a plain name"), -1;
  Fd dir(open_parent(root, parts, relative, error));
  if (dir.fd < 0) return -1;
  const std::string shown = root + "/" + relative;
  // O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader.
  Fd fd(::openat(dir.fd, parts.back().c_str(),
                 O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
  if (fd.fd < 0) {
    const int err = errno;  // the stat below sets its own
    struct stat there {};
    const bool found = ::fstatat(dir.fd, parts.back().c_str(), &there, AT_SYMLINK_NOFOLLOW) == 0;
    if (found && S_ISLNK(there.st_mode))
      return refuse(error, "refused to append to " + shown + ": a link, which is not followed"), -1;
    if (found && !S_ISREG(there.st_mode))
      return refuse(error, "refused to append to " + shown + ": not a regular file"), -1;
    return fail(error, "cannot open " + shown, err), -1;
  }
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return refuse(error, "refused to append to " + shown + ": not a regular file"), -1;
  ::fcntl(fd.fd, F_SETFL, O_WRONLY | O_APPEND);
  return fd.release();
}

}  // namespace lb::files
