//===- depreduce/formats/reference/dot_reader.hpp - cgraph DOT -*- C++ -*-===//
///
/// \file
/// REFERENCE READER. The twin of depreduce::formats::read_dot() (SPEC §1:
/// an optimized reader has a library-backed reference reader): DOT read by
/// Graphviz's own parser, cgraph, so that what Graphviz accepts, and what it
/// makes of it, is the definition the fast reader is held to
/// (fuzz/fuzz_dot_reader_diff.cpp, tests/dot_reader_test.cpp). Links
/// libcgraph; not installed, not for vendoring. `depreduce reduce --impl
/// reference` reads through it.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_REFERENCE_DOT_READER_HPP
#define DEPREDUCE_FORMATS_REFERENCE_DOT_READER_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/formats/formats.hpp"

namespace depreduce::formats::reference {

/// Reads Graphviz DOT with cgraph. Same contract as formats::read_dot():
/// nodes in creation order (first mention), edges in the order written,
/// the graph name, strictness, graph attributes, the top-level defaults, per
/// node/edge the attributes whose value differs from the top-level default,
/// the subgraph tree and the model attributes (docs/formats.md, "DOT").
/// Lines are physical lines computed by us (cgraph records none): a node's
/// first mention, the end of an edge's statement.
/// \throws InputError for syntax errors (the line of the token cgraph stopped
///   at), undirected graphs, more than one graph, NUL bytes and malformed
///   model attributes.
/// Thread-safety: cgraph keeps global state; calls are serialized internally.
/// Cost: O(size of text + (n + m) log m), about 8 MB/s.
InputGraph read_dot(std::string_view text, const std::string& file = "<dot>");

/// formats::read_graph() with DOT read by reference::read_dot() and WfCommons
/// JSON by reference::read_wfjson() (nlohmann-json,
/// depreduce/formats/reference/wfjson_reader.hpp); STG and DAX by their
/// readers. \throws InputError as formats::read_graph().
InputGraph read_graph(const std::string& path, Format format = Format::Auto);

/// The reference reader's own parser of a byte-range list, the value of the
/// DOT attributes reads= and writes= (SPEC §5), the rule of
/// formats::parse_byte_ranges() stated again:
///
///   list  = blank | range { "," range }
///   range = space ":" "[" number "," number ")"      (lo <= hi)
///   space = a letter, '_', '.' or '-', then letters, digits, '_', '.', '-'
///   number = decimal digits, or "0x"/"0X" and hexadecimal digits; < 2^64
///
/// with blanks (space, tab, CR, LF, VT, FF) allowed around every token.
/// Returns the ranges in the order written (duplicates kept).
/// \throws InputError(\p file, \p line, ...) where parse_byte_ranges()
///   throws (props/dot_reader_props.cpp holds the two to the same verdict);
///   the message is its own. Cost: O(text.size()).
std::vector<ByteRange> read_byte_ranges(std::string_view text, const std::string& file, std::uint32_t line);

/// The reference writer's own spelling of \p ranges, the one
/// formats::format_byte_ranges() writes: "space:[lo,hi)" in decimal, joined
/// by ','; "" for none. Cost: O(output size).
std::string write_byte_ranges(const std::vector<ByteRange>& ranges);

/// The plain DOT writer (the one formats::write_dot() replaced): the same
/// text as formats::write_dot(g, {.inline_ports = false}), built with
/// per-object attribute lists. Cost: O(output size + (n + m) log(n + m)).
std::string write_dot(const Graph& g);

} // namespace depreduce::formats::reference

#endif // DEPREDUCE_FORMATS_REFERENCE_DOT_READER_HPP
