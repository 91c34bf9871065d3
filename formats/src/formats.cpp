//===- formats/src/formats.cpp - Format selection, files, byte ranges ----===//
#include "depreduce/formats/formats.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "internal.hpp"

namespace depreduce::formats {

using detail::show;

Format parse_format(std::string_view name) {
  std::string n = detail::lower(name);
  if (n == "auto") return Format::Auto;
  if (n == "dot" || n == "gv") return Format::Dot;
  if (n == "stg") return Format::Stg;
  if (n == "wfjson" || n == "json") return Format::WfJson;
  if (n == "dax" || n == "xml") return Format::Dax;
  throw InputError("<format>", 0, "unknown format " + show(name) + " (expected auto, dot, stg, wfjson or dax)");
}

namespace {


Format sniff(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && detail::is_space(text[i])) ++i;
  if (i >= text.size()) return Format::Dot;
  char c = text[i];
  if (c == '{' || c == '[') return Format::WfJson;
  if (c == '<') return Format::Dax;
  if (c >= '0' && c <= '9') return Format::Stg;
  return Format::Dot;
}

Format from_extension(const std::string& path) {
  // std::filesystem::path(path).extension(), without building the path (a
  // batch resolves every input's): the file name's last '.' and what
  // follows, unless the name starts with its only '.' (".dot") or is "..".
  const std::string_view leaf = std::string_view(path).substr(path.rfind('/') + 1);
  const std::size_t dot = leaf.rfind('.');
  const std::string ext =
      dot == std::string_view::npos || dot == 0 || leaf == ".." ? std::string() : detail::lower(leaf.substr(dot));
  if (ext == ".dot" || ext == ".gv") return Format::Dot;
  if (ext == ".stg") return Format::Stg;
  if (ext == ".json") return Format::WfJson;
  if (ext == ".xml" || ext == ".dax") return Format::Dax;
  return Format::Auto;
}

std::string errno_text(int err) { return std::strerror(err); }

} // namespace

std::string input_name(const std::string& path) { return path == "-" ? std::string("<stdin>") : path; }

std::string read_file(const std::string& path) {
  const bool stdin_ = path == "-";
  std::error_code ec;
  if (!stdin_ && std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "is a folder, not a file");
  std::FILE* f = stdin_ ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw InputError(path, 0, "cannot open: " + errno_text(errno));
  std::string out;
  struct stat st {};
  if (!stdin_ && ::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    out.reserve(static_cast<std::size_t>(st.st_size)); // one allocation for a regular file
  char buf[65536];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, got);
  bool bad = std::ferror(f) != 0;
  int err = errno;
  if (!stdin_) std::fclose(f);
  if (bad) throw InputError(input_name(path), 0, "read error: " + errno_text(err));
  return out;
}

Format resolve_format(const std::string& path, std::string_view text, Format format) {
  if (format == Format::Auto && path != "-") format = from_extension(path);
  if (format == Format::Auto) format = sniff(text);
  return format;
}

InputGraph read_graph(const std::string& path, Format format) {
  return read_graph(path, format, std::function<void(std::size_t, std::size_t)>());
}

namespace {

/// The text of an input file: a regular file over kSmallFile is mapped (no
/// copy, and its pages go back as soon as the reader is done), anything
/// else (a small file, stdin, a pipe, an empty or special file) is read
/// into a string.
class InputText {
public:
  /// Up to this size a regular file is read rather than mapped.
  static constexpr off_t kSmallFile = 64 << 10;
  explicit InputText(const std::string& path) {
    if (path != "-") {
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      struct stat st {};
      if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
          st.st_size <= kSmallFile) {
        // A small file is read: one call instead of mapping, advising and
        // unmapping it (a batch reads hundreds of regions of 1-2 KB).
        copy_.resize(static_cast<std::size_t>(st.st_size));
        std::size_t got = 0;
        while (got < copy_.size()) {
          const ssize_t n = ::read(fd, copy_.data() + got, copy_.size() - got);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) break;
          got += static_cast<std::size_t>(n);
        }
        if (got == copy_.size()) {
          ::close(fd);
          return;
        }
        copy_.clear(); // changed or failed under us: read_file() below says which
      } else if (fd >= 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
          map_ = p;
          size_ = static_cast<std::size_t>(st.st_size);
          (void)::madvise(p, size_, MADV_SEQUENTIAL);
          (void)::madvise(p, size_, MADV_WILLNEED);
        }
      }
      if (fd >= 0) ::close(fd);
    }
    if (!map_) copy_ = read_file(path); // and its errors
  }
  ~InputText() {
    if (map_) ::munmap(map_, size_);
  }
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;
  std::string_view text() const {
    return map_ ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(copy_);
  }
  /// The reader needs none of the text before \p upto: its pages leave the
  /// process (a private read-only file mapping reads them again from the
  /// page cache if they are touched after all, so nothing can be lost).
  /// Keeps a whole-process read of a large file from holding the file and
  /// the graph at once.
  void release(std::size_t upto) {
    if (!map_) return;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    upto = std::min(upto, size_) / page * page;
    if (upto > released_) {
      (void)::madvise(static_cast<char*>(map_) + released_, upto - released_, MADV_DONTNEED);
      released_ = upto;
    }
  }

private:
  void* map_ = nullptr;
  std::size_t size_ = 0, released_ = 0;
  std::string copy_;
};

} // namespace

InputGraph read_graph(const std::string& path, Format format,
                      const std::function<void(std::size_t, std::size_t)>& progress) {
  InputText input(path);
  const std::string_view text = input.text();
  if (resolve_format(path, text, format) == Format::Dot)
    return detail::read_dot_releasing(text, input_name(path), progress,
                                      [&input](std::size_t upto) { input.release(upto); });
  InputGraph g = read_graph_text(text, path, format);
  if (progress) progress(text.size(), text.size());
  return g;
}

InputGraph read_graph_text(std::string_view text, const std::string& path, Format format) {
  const std::string file = input_name(path);
  switch (resolve_format(path, text, format)) {
  case Format::Stg: return read_stg(text, file);
  case Format::WfJson: return read_wfjson(text, file);
  case Format::Dax: return read_dax(text, file);
  case Format::Dot:
  case Format::Auto: break;
  }
  return read_dot(text, file);
}

namespace {
namespace fs = std::filesystem;

/// Where a write to \p path (not empty, not "-") lands, and what is there now.
struct OutputTarget {
  fs::path target;         ///< \p path with its symbolic links followed.
  fs::file_status existing; ///< What target is now (not_found if nothing).
  int descriptor = -1;     ///< >= 0: \p path names this process's open descriptor (own_descriptor()).
};

/// The descriptor N if \p path, or a link on the way from it, is one of this
/// process's own descriptors: `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`, `/proc/<pid>/fd/N` (also through a thread's
/// `/proc/<pid>/task/<tid>/fd`), checked on the folder with its links
/// followed, so `/dev/fd` -> `/proc/self/fd` counts. Else -1. Such a path
/// must be written through the descriptor itself: its own link text names the
/// file the descriptor was opened on (`>> a.txt` gives `/path/a.txt`), and
/// replacing that file, or even opening it again, would lose what the shell
/// asked for (the append, the offset, earlier content).
/// Cost: one realpath and one readlink per link on the way (at most 40).
int own_descriptor(const fs::path& path) {
  std::error_code ec;
  const std::string self = "/proc/" + std::to_string(::getpid());
  fs::path at = path;
  for (int hops = 0; hops <= 40; ++hops) {
    const std::string leaf = at.filename().string();
    const bool digits = !leaf.empty() && leaf.size() <= 9 &&
                        std::all_of(leaf.begin(), leaf.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits) {
      const fs::path dir = fs::canonical(at.parent_path().empty() ? fs::path(".") : at.parent_path(), ec);
      if (!ec) {
        const std::string d = dir.string();
        const bool process_fds = d == self + "/fd";
        const bool thread_fds = d.rfind(self + "/task/", 0) == 0 && dir.filename() == "fd" &&
                                dir.parent_path().parent_path() == fs::path(self + "/task");
        if (process_fds || thread_fds) return std::stoi(leaf);
      }
    }
    if (!fs::is_symlink(fs::symlink_status(at, ec))) return -1;
    const fs::path next = fs::read_symlink(at, ec);
    if (ec) return -1;
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  return -1;
}

/// Resolves \p path for writing and checks what can be checked before
/// writing: links resolve, the target is not a folder, and (unless it is an
/// existing device or FIFO, written in place) its folder exists.
OutputTarget resolve_output(const std::string& path) {
  OutputTarget out{fs::path(path), {}};
  std::error_code ec;
  // The common case in two stat calls (a batch writes hundreds of outputs):
  // nothing there yet, or a regular file, under a name that is no
  // descriptor number. The checks below would find the same.
  if (const std::string leaf = out.target.filename().string();
      leaf.empty() || !std::all_of(leaf.begin(), leaf.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const fs::file_status here = fs::symlink_status(out.target, ec);
    if (here.type() == fs::file_type::not_found || here.type() == fs::file_type::regular) {
      out.existing = here;
      const fs::path dir = out.target.parent_path();
      if (!dir.empty() && !fs::is_directory(dir, ec))
        throw InputError(path, 0, "cannot write: folder '" + dir.string() + "' does not exist");
      return out;
    }
  }
  // One of this process's descriptors (/dev/stdout, /dev/fd/N, ...): written
  // through the descriptor, whatever it is open on (a terminal, a pipe, a
  // socket, a regular file opened by `>>`).
  if (const int fd = own_descriptor(out.target); fd >= 0) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) throw InputError(path, 0, "cannot write: descriptor " + std::to_string(fd) + " is not open");
    if ((flags & O_ACCMODE) == O_RDONLY)
      throw InputError(path, 0, "cannot write: descriptor " + std::to_string(fd) + " is open for reading only");
    out.descriptor = fd;
    return out;
  }
  // A device, FIFO or socket however the path reaches it, the kernel's own
  // links included (/dev/stdout, a shell's `>(...)` as /dev/fd/63: their
  // link text, "pipe:[...]", is no path), is written in place through the
  // path as given.
  if (const fs::file_status through = fs::status(out.target, ec);
      fs::exists(through) && !fs::is_regular_file(through) && !fs::is_directory(through)) {
    out.existing = through;
    return out;
  }
  // A symbolic link stays a link: replace the file it points to.
  // Followed link by link, so a dangling link gets its target created (as a
  // shell redirection would) instead of being replaced by a regular file.
  for (int hops = 0; fs::is_symlink(fs::symlink_status(out.target, ec)); ++hops) {
    if (hops == 40) throw InputError(path, 0, "cannot resolve the link: too many levels of symbolic links");
    fs::path next = fs::read_symlink(out.target, ec);
    if (ec) throw InputError(path, 0, "cannot resolve the link: " + ec.message());
    out.target = next.is_absolute() ? next : out.target.parent_path() / next;
  }
  out.existing = fs::status(out.target, ec);
  if (fs::is_directory(out.existing)) throw InputError(path, 0, "is a folder, not a file");
  const bool special = fs::exists(out.existing) && !fs::is_regular_file(out.existing);
  const fs::path dir = out.target.parent_path();
  if (!special && !dir.empty() && !fs::is_directory(dir, ec))
    throw InputError(path, 0, "cannot write: folder '" + dir.string() + "' does not exist");
  return out;
}
} // namespace

void check_output_path(const std::string& path) {
  if (path.empty()) throw InputError("<output>", 0, "the output path is empty");
  if (path != "-") (void)resolve_output(path);
}

namespace {
/// The temporaries remove_temporary_outputs() removes: the path of each one
/// being written (AtomicOutput::tmp_, unchanged while registered), or null.
constexpr int kTemporarySlots = 16;
std::atomic<const char*> g_temporaries[kTemporarySlots];

/// SIGINT, SIGTERM and SIGHUP held back in this thread while it lives (and
/// delivered when it ends): a temporary is created and registered for
/// remove_temporary_outputs() as one step, so a signal in between cannot
/// leave it behind (a fresh user's trial: one empty temporary in about 250
/// interrupted runs, every time under gdb).
class SignalsHeld {
public:
  SignalsHeld() noexcept {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    held_ = ::pthread_sigmask(SIG_BLOCK, &set, &before_) == 0;
  }
  ~SignalsHeld() {
    if (held_) ::pthread_sigmask(SIG_SETMASK, &before_, nullptr);
  }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

private:
  sigset_t before_;
  bool held_ = false;
};
} // namespace

namespace detail {
void (*after_temporary_created)(const char* path) = nullptr;
} // namespace detail

void remove_temporary_outputs() noexcept {
  for (auto& slot : g_temporaries)
    if (const char* p = slot.exchange(nullptr)) ::unlink(p);
}

void AtomicOutput::unregister() noexcept {
  if (slot_ >= 0) g_temporaries[slot_].store(nullptr);
  slot_ = -1;
}

OutputFolder::OutputFolder(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw InputError(path_, 0, "cannot open the output folder: " + errno_text(errno));
  pid_ = static_cast<int>(::getpid());
  // The listing through a descriptor of its own (closedir closes it).
  const int list_fd = ::openat(fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* dir = list_fd >= 0 ? ::fdopendir(list_fd) : nullptr;
  if (!dir) {
    const int err = errno;
    if (list_fd >= 0) ::close(list_fd);
    ::close(fd_);
    throw InputError(path_, 0, "cannot list the output folder: " + errno_text(err));
  }
  while (const dirent* e = ::readdir(dir)) names_.emplace_back(e->d_name);
  ::closedir(dir);
  std::sort(names_.begin(), names_.end());
}

OutputFolder::~OutputFolder() { ::close(fd_); }

bool OutputFolder::listed(const std::string& name) const {
  return std::binary_search(names_.begin(), names_.end(), name);
}

std::string OutputFolder::path_of(const std::string& name) const {
  // fs::path(path_) / name for a relative name, without parsing the path.
  if (path_.empty()) return name;
  return path_.back() == '/' ? path_ + name : path_ + '/' + name;
}

void AtomicOutput::create_temporary(const std::string& dir, const std::string& leaf_name, int pid) {
  static std::atomic<unsigned> counter{0};
  const SignalsHeld held; // until the temporary is registered
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    tmp_ = dir;
    if (!tmp_.empty() && tmp_.back() != '/') tmp_ += '/';
    tmp_leaf_ = dir_fd_ == AT_FDCWD ? 0 : tmp_.size();
    tmp_ += '.';
    tmp_ += leaf_name;
    tmp_ += ".tmp.";
    tmp_ += std::to_string(pid);
    tmp_ += '.';
    tmp_ += std::to_string(counter.fetch_add(1));
    // 0666 & ~umask, like any new file; O_EXCL so we never clobber.
    fd_ = ::openat(dir_fd_, tmp_.c_str() + tmp_leaf_, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST) throw InputError(path_, 0, "cannot create a temporary file: " + errno_text(errno));
  }
  if (fd_ < 0) throw InputError(path_, 0, "cannot create a temporary file: too many attempts");
  if (detail::after_temporary_created) detail::after_temporary_created(tmp_.c_str());
  for (int i = 0; i < kTemporarySlots && slot_ < 0; ++i) {
    const char* none = nullptr;
    if (g_temporaries[i].compare_exchange_strong(none, tmp_.c_str())) slot_ = i;
  }
  mode_ = Mode::Temporary;
}

AtomicOutput::AtomicOutput(const OutputPath& output) : path_(output.path), dir_fd_(AT_FDCWD) {
  if (path_.empty()) throw InputError("<output>", 0, "the output path is empty");
  if (path_ == "-" && !output.folder) {
    mode_ = Mode::Stdout;
    return;
  }
  // A name new in a folder opened once: nothing to resolve, the folder is
  // there (its descriptor holds it), and the temporary and the rename go
  // relative to it. A name made of digits only is left to the checks below
  // (a folder of descriptors, /dev/fd, has such names).
  if (const OutputFolder* folder = output.folder;
      folder && !output.name.empty() && output.name.find('/') == std::string::npos && output.name != "." &&
      output.name != ".." && !folder->listed(output.name) &&
      !std::all_of(output.name.begin(), output.name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    dir_fd_ = folder->fd_;
    target_ = output.name;
    create_temporary(folder->path_, output.name, folder->pid_);
    return;
  }
  const auto [target, existing, descriptor] = resolve_output(path_);
  target_ = target.string();
  if (descriptor >= 0) {
    // Our own descriptor: a duplicate shares its offset and O_APPEND, so the
    // text lands where a write to the descriptor would, after whatever this
    // process's stdio has buffered for it.
    if (descriptor == 1) std::fflush(stdout);
    if (descriptor == 2) std::fflush(stderr);
    fd_ = ::fcntl(descriptor, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) throw InputError(path_, 0, "cannot open for writing: " + errno_text(errno));
    mode_ = Mode::Direct;
    return;
  }
  if (fs::exists(existing) && !fs::is_regular_file(existing)) {
    // A device, FIFO or socket (e.g. /dev/null): nothing to replace, so write
    // to it directly; never turn it into a regular file.
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path_, 0, "cannot open for writing: " + errno_text(errno));
    mode_ = Mode::Direct;
    return;
  }
  create_temporary(target.parent_path().string(), target.filename().string(), static_cast<int>(::getpid()));
  // Replacing an existing file keeps its permissions.
  if (fs::is_regular_file(existing))
    (void)::fchmod(fd_, static_cast<mode_t>(existing.permissions() & fs::perms::mask));
}

AtomicOutput::~AtomicOutput() {
  if (mode_ == Mode::Done || mode_ == Mode::Stdout) {
    unregister();
    return;
  }
  if (fd_ >= 0) ::close(fd_);
  // Removed, then unregistered: a signal in between unlinks a name that is gone.
  if (mode_ == Mode::Temporary) ::unlinkat(dir_fd_, tmp_.c_str() + tmp_leaf_, 0);
  unregister();
}

void AtomicOutput::write(std::string_view content) {
  if (buffer_.size() + content.size() < (1u << 16)) {
    buffer_.append(content);
    return;
  }
  // A large piece goes out as it is, after what is buffered (no second copy).
  flush();
  write_all(content.data(), content.size());
}

void AtomicOutput::fail(const std::string& problem) {
  const int err = errno;
  const std::string name = mode_ == Mode::Stdout ? std::string("<stdout>") : path_;
  if (mode_ != Mode::Stdout) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (mode_ == Mode::Temporary) ::unlinkat(dir_fd_, tmp_.c_str() + tmp_leaf_, 0);
    unregister(); // after the unlink, as in the destructor
  }
  mode_ = Mode::Done;
  throw InputError(name, 0, problem + ": " + errno_text(err));
}

void AtomicOutput::flush() {
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void AtomicOutput::write_all(const char* p, std::size_t left) {
  if (mode_ == Mode::Done) throw std::logic_error("AtomicOutput: write after commit");
  if (mode_ == Mode::Stdout) {
    if (std::fwrite(p, 1, left, stdout) != left) {
      const int err = errno;
      mode_ = Mode::Done;
      throw InputError("<stdout>", 0, "write error: " + errno_text(err));
    }
    return;
  }
  while (left > 0) {
    ssize_t w = ::write(fd_, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail("write error");
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

void AtomicOutput::commit() {
  flush();
  if (mode_ == Mode::Stdout) {
    mode_ = Mode::Done;
    if (std::fflush(stdout) != 0) throw InputError("<stdout>", 0, "write error: " + errno_text(errno));
    return;
  }
  if (mode_ == Mode::Direct) {
    const int fd = fd_;
    fd_ = -1;
    mode_ = Mode::Done;
    if (::close(fd) != 0) throw InputError(path_, 0, "write error: " + errno_text(errno));
    return;
  }
  // No fsync: the rename makes the output atomic (old file or complete new
  // one), which is what a failed run must not break. Durability across a
  // power cut is the file system's, as for compilers' outputs; an fsync cost
  // 10-40 ms per file here, more than reading and reducing a 20k-node graph.
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail("write error");
  }
  fd_ = -1;
  if (::renameat(dir_fd_, tmp_.c_str() + tmp_leaf_, dir_fd_, target_.c_str()) != 0)
    fail("cannot rename the temporary file into place");
  unregister(); // after the rename: a signal in between unlinks a name that is gone
  mode_ = Mode::Done;
}

void write_file_atomically(const OutputPath& path, std::string_view content) {
  AtomicOutput out(path);
  out.write(content);
  out.commit();
}

std::string write_json_summary(const Graph& g) {
  nlohmann::ordered_json j;
  j["name"] = g.name;
  j["nodes"] = g.nodes.size();
  j["edges"] = g.edges.size();
  j["engines"] = g.num_engines;
  j["self_loops"] = g.self_loops.size();
  // Names and labels may hold any bytes; never throw on invalid UTF-8.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// ---- byte ranges -------------------------------------------------------

namespace {

class RangeParser {
public:
  RangeParser(std::string_view text, const std::string& file, std::uint32_t line)
      : t_(text), file_(file), line_(line) {}

  std::vector<ByteRange> run() {
    std::vector<ByteRange> out;
    skip();
    if (i_ == t_.size()) return out;
    for (;;) {
      out.push_back(range());
      skip();
      if (i_ == t_.size()) return out;
      expect(',', "',' between ranges or the end");
      skip();
    }
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_, line_, "malformed byte range list " + show(t_) + ": " + what + " at offset " +
                                       std::to_string(i_));
  }
  void skip() {
    while (i_ < t_.size() && detail::is_space(t_[i_])) ++i_;
  }
  void expect(char c, const char* what) {
    if (i_ >= t_.size() || t_[i_] != c) fail(std::string("expected ") + what);
    ++i_;
  }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  }
  std::uint64_t number() {
    skip();
    std::size_t s = i_;
    std::uint64_t v = 0;
    if (i_ + 1 < t_.size() && t_[i_] == '0' && (t_[i_ + 1] == 'x' || t_[i_ + 1] == 'X')) {
      i_ += 2;
      std::size_t d0 = i_;
      for (; i_ < t_.size(); ++i_) {
        char c = t_[i_];
        unsigned d;
        if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
        else break;
        if (v >> 60) fail("number " + show(t_.substr(s, i_ + 1 - s)) + " does not fit in 64 bits");
        v = (v << 4) | d;
      }
      if (i_ == d0) fail("expected hexadecimal digits");
    } else {
      for (; i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9'; ++i_) {
        unsigned d = static_cast<unsigned>(t_[i_] - '0');
        if (v > (UINT64_MAX - d) / 10) {
          std::size_t e = i_;
          while (e < t_.size() && t_[e] >= '0' && t_[e] <= '9') ++e;
          fail("number " + show(t_.substr(s, e - s)) + " does not fit in 64 bits");
        }
        v = v * 10 + d;
      }
      if (i_ == s) fail("expected a number");
    }
    skip();
    return v;
  }
  ByteRange range() {
    ByteRange r;
    std::size_t s = i_;
    if (i_ < t_.size() && !(t_[i_] >= '0' && t_[i_] <= '9'))
      while (i_ < t_.size() && name_char(t_[i_])) ++i_;
    if (i_ == s) fail("expected a space name (e.g. sbuf)");
    r.space = std::string(t_.substr(s, i_ - s));
    skip();
    expect(':', "':' after the space name");
    skip();
    expect('[', "'[' after ':'");
    r.lo = number();
    expect(',', "',' between lo and hi");
    r.hi = number();
    expect(')', "')' closing the half-open range");
    if (r.lo > r.hi)
      fail("range " + r.space + ":[" + std::to_string(r.lo) + "," + std::to_string(r.hi) + ") has lo > hi");
    return r;
  }

  std::string_view t_;
  const std::string& file_;
  std::uint32_t line_;
  std::size_t i_ = 0;
};

} // namespace

std::vector<ByteRange> parse_byte_ranges(std::string_view text, const std::string& file, std::uint32_t line) {
  return RangeParser(text, file, line).run();
}

std::string format_byte_ranges(const std::vector<ByteRange>& ranges) {
  std::string out;
  for (const ByteRange& r : ranges) {
    if (!out.empty()) out += ',';
    out += r.space + ":[" + std::to_string(r.lo) + "," + std::to_string(r.hi) + ")";
  }
  return out;
}

} // namespace depreduce::formats
