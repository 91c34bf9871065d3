//===- depreduce/formats/formats.hpp - Readers and writers -----*- C++ -*-===//
///
/// \file
/// Turns files into the graph model (InputGraph) and graphs back into files.
/// Every reader throws depreduce::InputError naming the file, the line (where
/// there is one) and the problem; none aborts or reads out of bounds.
///
/// The formats, the attribute conventions (engine=, async=, barrier=, reads=,
/// writes=, kind=, flags=, engines=) and what is not preserved are described
/// in docs/formats.md.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_FORMATS_HPP
#define DEPREDUCE_FORMATS_FORMATS_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/error.hpp"
#include "depreduce/graph.hpp"

namespace depreduce::formats {

/// Input formats.
enum class Format {
  Auto,   ///< Decide from the extension, then from the content.
  Dot,    ///< Graphviz DOT (the one-pass reader; twin: reference::read_dot, cgraph).
  Stg,    ///< Kasahara Standard Task Graph.
  WfJson, ///< WfCommons WfFormat JSON, schema 1.5.
  Dax,    ///< Pegasus DAX XML.
};

/// Parses "auto", "dot", "stg", "wfjson", "dax" (also the aliases "gv",
/// "json", "xml"; case-insensitive); throws InputError (file "<format>")
/// otherwise. Cost: O(1).
Format parse_format(std::string_view name);

/// The format read_graph() reads \p text (the contents of \p path) in:
/// \p format unless Auto, else by extension (not for "-"), else sniffed (see
/// read_graph()). Cost: O(1) (looks at the first significant bytes only).
Format resolve_format(const std::string& path, std::string_view text, Format format);

/// Reads \p path in \p format ("-" = standard input, named "<stdin>" in
/// messages, its format sniffed from the content). With Format::Auto the extension decides
/// (.dot/.gv -> DOT, .stg -> STG, .json -> WfJSON, .xml/.dax -> DAX); any
/// other extension is sniffed from the first significant byte ('{' or '['
/// -> JSON, '<' -> DAX, a digit -> STG, anything else -> DOT).
/// Returns the reader's InputGraph (file = \p path).
/// \throws InputError for unreadable files and for everything the chosen
///   reader rejects. Cost: one read of the file plus the reader's cost.
InputGraph read_graph(const std::string& path, Format format = Format::Auto);
/// read_graph() with a progress hook for the DOT reader (see read_dot()); the
/// other readers report once at the end.
InputGraph read_graph(const std::string& path, Format format,
                      const std::function<void(std::size_t done, std::size_t total)>& progress);

/// read_graph() of text already read from \p path (the extension of \p path,
/// unless it is "-", then the content decide the format with Format::Auto).
InputGraph read_graph_text(std::string_view text, const std::string& path, Format format = Format::Auto);

/// Reads Graphviz DOT in one pass, without Graphviz: the whole language
/// cgraph accepts, read as cgraph reads it (its twin, held to it by
/// fuzz_dot_reader_diff, is formats::reference::read_dot(), which is cgraph).
/// Returns nodes in creation order (the
/// order of first mention), edges in the order written (parallel edges and
/// self-loops kept), the graph name, strictness, graph attributes, the
/// top-level `node [...]`/`edge [...]` defaults, per node/edge the attributes
/// whose value differs from the top-level default, and the subgraph tree.
/// The model attributes (node engine=, async=, barrier=, reads=, writes=;
/// edge kind=, flags=; graph engines=) fill the Node/Edge/header fields and
/// are removed from the attribute lists. Lines: a node carries the line of its
/// first mention, an edge the line on which its edge statement ends.
/// \p file names the source in messages.
/// \throws InputError for syntax errors (the line of the token cgraph would
///   stop at), nesting or edge chains deeper than cgraph's parser stack,
///   undirected graphs, more than one graph, NUL bytes, and malformed model
///   attributes. Never aborts, never reads out of bounds.
/// Thread-safety: no global state; concurrent calls are fine. Runs on the
/// calling thread only (it starts no thread). A NUL byte is the error
/// wherever it is, and a bad node attribute (the first in creation order) is
/// reported before a bad edge attribute.
/// Cost: O(size of text + n + m) time (one pass, then one pass over the
/// attribute assignments); memory O(n + m + distinct strings) besides the
/// result, strings kept as views into \p text while reading.
InputGraph read_dot(std::string_view text, const std::string& file = "<dot>");
/// read_dot() reporting progress: \p progress (if set) gets (bytes read,
/// total) about every 4 MiB and once at the end; it must not throw.
InputGraph read_dot(std::string_view text, const std::string& file,
                    const std::function<void(std::size_t done, std::size_t total)>& progress);

/// Reads a Kasahara STG file: line 1 = n real tasks, then n+2 task lines
/// `id time npred pred...` (ids 0..n+1, dummies included), then an optional
/// `#` trailer. Node names are the ids as text; `time` is kept as attribute
/// `weight`; edges are pred -> task with the task's line.
/// \throws InputError naming the line for: a bad header, non-numeric or
///   out-of-range fields, ids not contiguous from 0, predecessor ids outside
///   0..n+1, a task line with fewer or more predecessors than npred, fewer
///   task lines than the header announces (truncated file), and task lines
///   beyond the announced count. Cost: O(size of text).
InputGraph read_stg(std::string_view text, const std::string& file = "<stg>");

/// Reads WfCommons WfFormat JSON (schema 1.5): one node per
/// `workflow.specification.tasks[]` entry (name = `id`; `name` kept as
/// attribute `label` when it differs), edges parent -> task from `parents`;
/// `children`, when present, must agree with `parents`. A task and its
/// edges get the line of the task's `"id"` key (the last one if the key
/// repeats: the last value wins, as in nlohmann-json's DOM). One pass, no
/// DOM; twin: reference::read_wfjson() (nlohmann-json), held to it by
/// fuzz_wfjson_reader_diff and tests/wfjson_reader_test.cpp.
/// \throws InputError for JSON syntax errors, missing or mistyped keys,
///   duplicate ids, unknown parent/child ids and parents/children
///   disagreement (naming the task), every one with a line: a syntax error,
///   where the parse stops; a mistyped value, its (last) key's line; a
///   missing key, where the object lacking it starts (a task without an
///   `id`: its '{'); any other error of a task, the task's line.
///   Cost: O(size of text + m log m).
InputGraph read_wfjson(std::string_view text, const std::string& file = "<json>");

/// Reads Pegasus DAX XML: one node per `<job>` (also `<dax>`/`<dag>`) element
/// with attribute `id` (attributes `name`, `namespace`, `runtime` kept), edges
/// parent -> child from `<child ref=...><parent ref=.../></child>` only.
/// \throws InputError for XML syntax errors and missing/unknown ids or refs,
///   with the line of the offending element. Cost: O(size of text).
InputGraph read_dax(std::string_view text, const std::string& file = "<dax>");

/// Parses a byte-range list `space:[lo,hi),space:[lo,hi),...` (the value of
/// the DOT attributes reads= and writes=). `space` is a name of letters,
/// digits, '_', '.', '-' (not starting with a digit); lo and hi are decimal
/// or 0x-hexadecimal 64-bit numbers; whitespace around tokens is allowed; an
/// empty or all-blank text gives an empty list.
/// Returns the ranges in the order written (duplicates kept).
/// \throws InputError(\p file, \p line, ...) for bad syntax, numbers that do
///   not fit in 64 bits, and lo > hi. Cost: O(text.size()).
std::vector<ByteRange> parse_byte_ranges(std::string_view text, const std::string& file,
                                         std::uint32_t line);

/// Formats \p ranges as parse_byte_ranges() reads them back
/// ("sbuf:[0,64),psum:[1,2)"; "" for none). Cost: O(output size).
std::string format_byte_ranges(const std::vector<ByteRange>& ranges);

/// How write_dot() spells what it writes.
struct WriteOptions {
  /// Ports go back on the endpoints, as the input wrote them (`"a":"p" ->
  /// "b"`); false writes them as `tailport`/`headport` attributes, the
  /// spelling of the writer this one replaced (reference::write_dot()).
  bool inline_ports = true;
};

/// Writes \p g as DOT that Graphviz renders: graph, node and edge attributes,
/// isolated nodes, self-loops and subgraphs kept; nodes and edges in input
/// order; the model's own fields written as the attributes of docs/formats.md;
/// a merged pair whose one edge would read back as another demand written as
/// its parts (parts_to_write()). Every id and value is quoted (HTML-like
/// values `<...>` are written as HTML strings); read_dot() of the result
/// gives back the same nodes, attributes and edges. One buffer, numbers with
/// std::to_chars. Cost: O(size of the output + (n + m) log(n + m)) (the sort
/// by input order; O(n + m) when the edges are already in input order).
/// Thread-safety: reads \p g only; concurrent calls are fine. From 16,384
/// node and edge statements on, where std::thread::hardware_concurrency() >=
/// 2, one more std::thread formats every other chunk of 4,096 statements
/// and is joined before the call returns or throws; the text is the same
/// bytes either way.
std::string write_dot(const Graph& g, const WriteOptions& options);
/// write_dot(g, WriteOptions{}).
std::string write_dot(const Graph& g);
class AtomicOutput;
/// write_dot() straight into \p out, 1 MiB at a time, so the text is never
/// held whole (a 10^6-instruction graph writes about 190 MB). The same bytes
/// as write_dot(g, options). Nothing is committed: the caller calls
/// out.commit(). Cost: as write_dot(); memory O(n + m) for the edge order,
/// not O(output). \throws InputError from \p out (a write error).
void write_dot(const Graph& g, AtomicOutput& out, const WriteOptions& options = WriteOptions{});

/// One `src<TAB>dst` line per merged edge of \p g (self-loops not included),
/// in the order of `g.edges`; names as they are (no quoting). One buffer.
/// Cost: O(size of the output).
std::string write_edge_list(const Graph& g);

/// A JSON summary of \p g for scripts: {"name", "nodes", "edges", "engines",
/// "self_loops"} (counts; edges = merged non-loop edges). Cost: O(1).
std::string write_json_summary(const Graph& g);

/// A folder that many outputs are written into, opened once (batch mode:
/// `reduce FILE... --out-dir DIR`). An AtomicOutput given an OutputPath in
/// it creates, renames and removes its temporary relative to the folder's
/// descriptor (no walk of the folder's path per output), and a name that was
/// not in the folder when it was listed here is taken as new: no stat call
/// of the output or of its folder. A name that was there is checked as any
/// path is (a link followed, a folder refused, a file's permissions kept).
/// So a file that another process creates under such a name while the
/// outputs are written is replaced (atomically, as always), not followed if
/// it is a link. Not copyable; must outlive every AtomicOutput using it.
class OutputFolder {
public:
  /// Opens and lists the folder \p path (it must exist).
  /// \throws InputError if it cannot be opened as a folder. Cost: one listing.
  explicit OutputFolder(std::string path);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  /// The folder's path as given.
  const std::string& path() const { return path_; }
  /// Whether \p name was in the folder when it was listed. Cost: O(log n).
  bool listed(const std::string& name) const;
  /// The folder's path joined with \p name (as messages name an output).
  std::string path_of(const std::string& name) const;

private:
  friend class AtomicOutput;
  std::string path_;
  int fd_ = -1;
  int pid_ = 0;                   ///< This process's id, for temporaries' names.
  std::vector<std::string> names_; ///< Sorted listing.
};

/// Where an output goes: a path as given ("-" = stdout), or a file name in
/// an OutputFolder (batch mode). Converts from a path implicitly.
struct OutputPath {
  OutputPath(std::string path) : path(std::move(path)) {} // NOLINT: a path is an output
  OutputPath(const char* path) : path(path) {}            // NOLINT: a path is an output
  /// \p name in \p folder: path is folder.path_of(name).
  OutputPath(const OutputFolder& folder, std::string name_in_folder)
      : path(folder.path_of(name_in_folder)), folder(&folder), name(std::move(name_in_folder)) {}
  std::string path;                     ///< The whole path, as messages name it.
  const OutputFolder* folder = nullptr; ///< Set: the output is \p name in this folder.
  std::string name;                     ///< File name in \p folder (no '/'), if folder is set.
};

/// Writes \p content to \p path through a temporary file in the same folder
/// and a rename, so \p path is either untouched or complete ("-" = stdout).
/// The new file gets mode 0666 minus the umask. Atomic, not durable: there is
/// no fsync (as for LLVM's output files, `sed -i` or Graphviz), so after a
/// power cut the file system decides what \p path holds; a failure of this
/// process never leaves it half written.
/// \throws InputError if the file cannot be written (or \p path is empty).
///   Cost: O(content.size()).
void write_file_atomically(const OutputPath& path, std::string_view content);

/// An output written piece by piece (for results too big to hold twice, e.g.
/// `reduce --json` of a large graph), with write_file_atomically()'s
/// guarantee: the constructor checks the path and opens a temporary file in
/// the same folder ("-" = stdout, written as it comes; a device or FIFO is
/// written in place; one of this process's own descriptors named by path,
/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, is written
/// through a duplicate of that descriptor, whatever it is open on, so a
/// shell's `>> file` keeps its earlier content and the file its inode);
/// commit() renames a temporary into place (an OutputPath in an OutputFolder:
/// relative to the folder's descriptor, see OutputFolder). Destroyed without
/// commit() (an exception), the temporary is removed and \p path is untouched.
/// write() buffers 64 KiB. Not copyable.
/// \throws InputError as write_file_atomically(), from any member.
class AtomicOutput {
public:
  explicit AtomicOutput(const OutputPath& path);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  /// Appends \p content. Cost: amortised O(content.size()).
  void write(std::string_view content);
  /// Flushes and renames the temporary into place (no fsync, as
  /// write_file_atomically()). Call once.
  void commit();

private:
  enum class Mode { Stdout, Direct, Temporary, Done };
  std::string path_, target_, tmp_, buffer_;
  int fd_ = -1;
  int dir_fd_;               ///< target_ and the temporary's leaf are relative to this (AT_FDCWD: to the working folder).
  std::size_t tmp_leaf_ = 0; ///< The temporary's name relative to dir_fd_ starts at tmp_[tmp_leaf_].
  void create_temporary(const std::string& dir, const std::string& leaf_name, int pid);
  Mode mode_ = Mode::Done;
  int slot_ = -1; ///< Where tmp_ is registered for remove_temporary_outputs(), or -1.
  void unregister() noexcept;
  void flush();
  void write_all(const char* p, std::size_t n);
  [[noreturn]] void fail(const std::string& problem);
};

/// Removes the temporary file of every AtomicOutput (and write_file_atomically())
/// not yet committed or destroyed: for a signal handler, so an interrupted
/// run (Ctrl-C, SIGTERM) leaves no `.<name>.tmp.<pid>.<n>` beside its output.
/// Async-signal-safe (unlink(2) of paths registered when they were created;
/// up to 16 at once, beyond that a temporary is removed only by its
/// destructor). The outputs themselves are untouched, as on any failure.
/// The library installs no handler: the `depreduce` CLI calls this from its
/// SIGINT, SIGTERM and SIGHUP handlers. AtomicOutput's constructor holds
/// those three signals back in its thread from the temporary's creation to
/// its registration (pthread_sigmask; they are delivered right after), so
/// no such signal can fall between the two. Cost: 16 atomic loads and one
/// unlink per temporary.
void remove_temporary_outputs() noexcept;

/// Checks, without writing, what write_file_atomically() would refuse before
/// writing: an empty path, a link that does not resolve, a folder, a missing
/// folder, an own descriptor (`/dev/fd/N`) that is not open for writing. For commands that write only after a long computation.
/// \throws InputError as write_file_atomically(). Cost: a few stat calls.
void check_output_path(const std::string& path);

/// Reads a whole file ("-" = all of standard input). \throws InputError if
/// it cannot be read (missing, a folder, an I/O error). Cost: O(file size).
std::string read_file(const std::string& path);

/// The name messages use for the input \p path: "<stdin>" for "-", else \p path.
std::string input_name(const std::string& path);

} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_FORMATS_HPP
