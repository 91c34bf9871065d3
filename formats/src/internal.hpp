//===- formats/src/internal.hpp - Helpers shared by the readers ---------===//
#ifndef DEPREDUCE_FORMATS_INTERNAL_HPP
#define DEPREDUCE_FORMATS_INTERNAL_HPP

#include <algorithm>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/graph.hpp"

namespace depreduce::formats::detail {

/// Maps byte offsets of one text to 1-based line numbers in O(log lines).
class LineMap {
public:
  explicit LineMap(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') newlines_.push_back(i);
  }
  /// Line of the byte at \p offset (offsets past the end give the last line).
  std::uint32_t line_of(std::size_t offset) const {
    auto it = std::lower_bound(newlines_.begin(), newlines_.end(), offset);
    return static_cast<std::uint32_t>(it - newlines_.begin()) + 1;
  }
private:
  std::vector<std::size_t> newlines_;
};

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// Parses a decimal unsigned integer that fits in \p max (no sign, no blanks).
inline std::optional<std::uint64_t> parse_uint(std::string_view s,
                                               std::uint64_t max = UINT64_MAX) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    unsigned d = static_cast<unsigned>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (v > max) return std::nullopt;
  return v;
}

/// Quotes \p s for an error message: 'abc', cut after 60 bytes.
inline std::string show(std::string_view s) {
  std::string out = "'";
  if (s.size() > 60) {
    out.append(s.substr(0, 60));
    out += "...";
  } else {
    out.append(s);
  }
  out += "'";
  return out;
}

/// The problem of a DOT syntax error at the end of the input, from cgraph's
/// text of it (\p cgraph_problem, "syntax error ..."), as both DOT readers
/// give it: a string or comment that never closes says so (cgraph's text
/// follows in parentheses), anything else is a file cut short.
inline std::string end_of_file_problem(const std::string& cgraph_problem) {
  const char* what = cgraph_problem.find("scanning a quoted string") != std::string::npos ? "quoted string"
                     : cgraph_problem.find("scanning a HTML string") != std::string::npos ? "HTML string"
                     : cgraph_problem.find("scanning a /*...*/ comment") != std::string::npos ? "/* comment"
                                                                                             : nullptr;
  if (what)
    return std::string("unterminated ") + what + ": it opens on this line and runs to the end of the file (" +
           cgraph_problem + ")";
  return "unexpected end of file (" + cgraph_problem + "; is a '}' or an edge's target missing?)";
}

/// \p problem, a DOT syntax error in cgraph's words, with a hint where its
/// token starts with a UTF-8 byte-order mark: a mark glued to a word (a
/// file saved as "UTF-8 with BOM" starts `\xEF\xBB\xBFdigraph`) is part of
/// that word to cgraph, which reads only a mark standing alone as blank.
inline std::string with_byte_order_mark_hint(std::string problem) {
  if (problem.find("near '\xEF\xBB\xBF") != std::string::npos)
    problem += " (it starts with a UTF-8 byte-order mark, which Graphviz reads as part of the word after it: "
               "remove the mark or put a space after it)";
  return problem;
}

/// When the DOT reader scans simple statements ahead of its parser and
/// prefetches what their names look up (dot/fast_path.cpp, top_up()): once its
/// interner's table has \p lookahead_table_slots slots. The default, 2^18
/// (2 MiB), is past a core's cache, where lookups start to miss. 0 scans
/// ahead from the start: tests/dot_reader_test.cpp and fuzz_dot_reader_diff
/// read that way too, so the path is held to cgraph on small inputs.
/// Whichever path reads a statement, the result is the same.
struct DotReadTuning {
  std::size_t lookahead_table_slots = std::size_t{1} << 18;
  /// read_dot_releasing() gives the text's pages back as it goes (and the
  /// reader copies the strings it keeps out of the text) only for a text of
  /// this many bytes or more; 0: always, for tests. On a smaller one there
  /// is little to give back, and the copies cost more than it saves (the
  /// 20k DAG, 4.3 MB, reads faster without them).
  std::size_t release_from = std::size_t{16} << 20;
  /// If set, the number of statements the parser read the simple way
  /// (simple_stmt()) is added here (tests: which statements take the fast
  /// path is part of the reader's speed, not of its result).
  std::size_t* simple_read = nullptr;
};

/// read_dot() that may call \p release(upto) as it goes: the text before
/// byte `upto` is not needed any more (read_graph() gives a mapped file's
/// pages back). Strings the graph keeps are then copied out of the text.
InputGraph read_dot_releasing(std::string_view text, const std::string& file,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const std::function<void(std::size_t)>& release,
                              const DotReadTuning& tuning = DotReadTuning{});

/// For tests (tests/formats_test.cpp): called, when set, by AtomicOutput's
/// constructor right after it has created its temporary file and before it
/// registers it for remove_temporary_outputs(), with the temporary's path.
/// A test raises a signal there to show that it is held back until the
/// registration. Null otherwise (one load per output).
extern void (*after_temporary_created)(const char* path);

/// Whether work of \p size goes to a second thread, given a DotReadTuning or
/// DotWriteTuning threshold \p from: from that size on, where a second
/// hardware thread is there; always where \p from is 0 (tests), never where
/// it is SIZE_MAX.
inline bool worth_a_thread(std::size_t size, std::size_t from) {
  return size >= from && (from == 0 || std::thread::hardware_concurrency() >= 2);
}

/// Knobs of write_dot() that change only its speed, for tests (the text is
/// the same bytes whatever they are).
struct DotWriteTuning {
  /// The node and edge statements are formatted on two threads, chunk by
  /// chunk, when there are at least this many of them together (and a second
  /// hardware thread is there; 0: always, for tests). SIZE_MAX: never.
  std::size_t parallel_from = 16384;
  /// Statements per chunk (the calling thread formats chunks 0, 2, 4, ...,
  /// a helper 1, 3, 5, ...).
  std::size_t chunk = 4096;
};

/// write_dot() with \p tuning: into \p sink 1 MiB at a time if it is set
/// (then the result is empty), else into the string returned.
std::string write_dot_tuned(const Graph& g, AtomicOutput* sink, const WriteOptions& options,
                            const DotWriteTuning& tuning);

} // namespace depreduce::formats::detail

#endif // DEPREDUCE_FORMATS_INTERNAL_HPP
