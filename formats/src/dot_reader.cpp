//===- formats/src/dot_reader.cpp - DOT, one pass, no Graphviz ------------===//
///
/// \file
/// read_dot(): the optimized DOT reader. Its reference twin is
/// formats::reference::read_dot() (Graphviz cgraph, formats/reference/); the
/// two must give the same InputGraph for every input and reject the same
/// inputs on the same line (fuzz/fuzz_dot_reader_diff.cpp holds them to it).
///
/// What it mirrors, and from where (Graphviz 2.42, lib/cgraph):
///  - the scanner (scan.l): keywords in any case, NAME / NUMBER (a number
///    glued to a letter or a second '.' splits), quoted strings (\" is a
///    quote, \\ stays \\, backslash-newline vanishes, a run of ordinary
///    characters that is exactly one newline vanishes, any other backslash
///    stays), HTML strings (nested <>), comments (/* */, //, # to the end of
///    the line), '@' ends the input, a byte-order mark standing alone is
///    blank, '->' is an edge operator in a digraph only (else the character
///    '-'), every other byte is a one-character token;
///  - the grammar and its actions (grammar.y): edge chains, node lists
///    (`a, b -> c`), subgraph endpoints (their nodes in creation order at the
///    time of the statement), ports `n:p:c` (tailport/headport declared
///    after the statement's own attributes), `key=` naming an edge, `+`
///    concatenation of quoted/HTML strings, the default attribute
///    statements and their scoping (a default set in a subgraph applies to
///    the nodes/edges created there and in its children), strict graphs
///    (one edge per pair, a keyed edge that would add a second is dropped);
///  - cgraph's attribute dictionaries: an attribute name is declared once per
///    kind, with default "", in the order first seen; objects created before
///    a default changes keep their value; a new subgraph starts from its
///    parent's graph-attribute defaults;
///  - cgraph's string pool: one text is an HTML string everywhere or nowhere,
///    decided by its first appearance in the graph (the graph's own name
///    counts as plain);
///  - bison's parser stack (YYMAXDEPTH 10000): nesting or edge chains deep
///    enough to exhaust it are rejected ("memory exhausted") as cgraph does.
///
/// One pass: the scanner hands tokens to a recursive-descent parser that
/// performs cgraph's actions at the points bison would. Names and values are
/// interned (views into the text when no escape changes them, else copied
/// once into an arena); attribute assignments are logged as (object,
/// attribute, value, line) and resolved once at the end, so no allocation is
/// made per token. Lines are physical lines, counted by the scanner. The
/// common statement of generated graphs is read without tokens
/// (SimpleScanner, apply_simple()); once the interning table outgrows the
/// caches, those statements are scanned a few ahead and their names' table
/// slots prefetched (top_up()). The text is searched for NUL bytes as it is
/// read. All on the calling thread.
///
/// The stages live in formats/src/dot/, each with a header comment saying
/// what it does and what it hands on: scanner (bytes -> tokens), parser
/// (tokens -> records, cgraph's actions), fast_path (simple statements ->
/// the same records, without tokens), to_model (records -> InputGraph);
/// dot/reader.hpp declares the reader they share. This file holds the entry
/// points: read_dot(), read_dot_releasing() and FastDotReader::run().
//===----------------------------------------------------------------------===//
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"
#include "dot/reader.hpp"
#include "internal.hpp"

namespace depreduce::formats {

namespace [[gnu::visibility("hidden")]] dot {

InputGraph FastDotReader::run() {
  // Parse 1: the graph. Parse 2: whatever follows it must be empty.
  bool have = false;
  no_html_ = allow_append_;
  // Room for what a generated graph of this size holds, so the big arrays
  // are not copied while they grow: the 20k DAG writes 22 bytes of text
  // per edge (n / 32 was too little). The attribute assignments get theirs
  // when the first one comes (room_for_sets()).
  edges_.reserve(n_ / 20);
  nodes_.reserve(n_ / 128);
  strs_.reserve(n_ / 64);
  // The interner's table too, for a name per 256 bytes (the 10^6 matmul
  // has one per 260, the 20k DAG one per 215): grown from 1,024 slots it
  // would be rebuilt eleven times on the 10^6 matmul, each time re-placing
  // every name at random in a table larger than the caches (about 7 % of
  // the read's user time). Where
  // the text holds fewer names it costs a table of 1/16 to 1/8 of the
  // text's size, written once.
  strs_.reserve_table(n_ / 256);
  try {
    have = parse_graph();
    if (simple_read_) *simple_read_ += simple_statements_;
  } catch (ParseError& e) {
    throw InputError(file_, e.line, e.problem);
  }
  if (!have) throw InputError(file_, 0, "no graph found");
  const bool directed = directed_;
  const std::uint32_t root_line = root_line_;
  second_parse();
  check_no_nul(n_);
  if (!directed) throw InputError(file_, root_line, "undirected graph: a dependency graph must be a 'digraph'");
  return convert();
}

} // namespace dot

using dot::FastDotReader;
using dot::NulSeen;
using dot::RestartInterningValues;

InputGraph read_dot(std::string_view text, const std::string& file) {
  return read_dot(text, file, std::function<void(std::size_t, std::size_t)>());
}

InputGraph read_dot(std::string_view text, const std::string& file,
                    const std::function<void(std::size_t, std::size_t)>& progress) {
  return detail::read_dot_releasing(text, file, progress, {});
}

namespace detail {

InputGraph read_dot_releasing(std::string_view text, const std::string& file,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const std::function<void(std::size_t)>& release, const DotReadTuning& tuning) {
  // A NUL byte anywhere is the error, on its line, whatever the parser made
  // of the text before it: the reader searches the text as it reads it, and
  // any error is checked against the whole text.
  auto no_nul = [&] {
    if (const std::size_t at = text.find('\0'); at != std::string_view::npos)
      throw InputError(file, detail::LineMap(text).line_of(at), "NUL byte in DOT text");
  };
  auto read = [&](bool allow_append) {
    FastDotReader reader(text, file);
    reader.allow_append_ = allow_append;
    reader.lookahead_from_ = tuning.lookahead_table_slots;
    reader.simple_read_ = tuning.simple_read;
    if (progress) reader.progress_ = &progress;
    if (release && text.size() >= tuning.release_from) {
      reader.release_ = &release;
      reader.copy_ = true;
    }
    return reader.run();
  };
  InputGraph g;
  try {
    try {
      g = read(true);
    } catch (const RestartInterningValues&) {
      g = read(false); // released pages of a mapped input are read again from the page cache
    }
  } catch (const NulSeen&) {
    no_nul();
    throw std::logic_error("read_dot: NulSeen without a NUL"); // cannot happen
  } catch (...) {
    no_nul(); // a NUL is the error, whatever the parser met
    throw;
  }
  if (progress) progress(text.size(), text.size());
  return g;
}

} // namespace detail

} // namespace depreduce::formats

