//===- depreduce/formats/formats.hpp - Readers and writers -----*- C++ -*-===//
///
/// \file
/// Turns files into the graph model (InputGraph) and graphs back into files.
/// Every reader throws depreduce::InputError naming the file, the line (where
/// there is one) and the problem; none aborts or reads out of bounds.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_FORMATS_HPP
#define DEPREDUCE_FORMATS_FORMATS_HPP

#include <string>
#include <string_view>

#include "depreduce/error.hpp"
#include "depreduce/graph.hpp"

namespace depreduce::formats {

/// Input formats.
enum class Format {
  Auto,   ///< Decide from the extension, then from the content.
  Dot,    ///< Graphviz DOT (read with Graphviz's own cgraph parser).
  Stg,    ///< Kasahara Standard Task Graph.
  WfJson, ///< WfCommons WfFormat JSON, schema 1.5.
  Dax,    ///< Pegasus DAX XML.
};

/// Parses "auto", "dot", "stg", "wfjson", "dax"; throws InputError otherwise.
Format parse_format(std::string_view name);

/// Reads \p path in \p format. \throws InputError (also for unreadable files).
InputGraph read_graph(const std::string& path, Format format = Format::Auto);

/// Readers over in-memory text; \p file names the source in messages.
InputGraph read_dot(std::string_view text, const std::string& file = "<dot>");
InputGraph read_stg(std::string_view text, const std::string& file = "<stg>");
InputGraph read_wfjson(std::string_view text, const std::string& file = "<json>");
InputGraph read_dax(std::string_view text, const std::string& file = "<dax>");

/// Writes \p g as DOT that Graphviz renders: graph, node and edge attributes,
/// isolated nodes, self-loops and subgraphs kept; nodes and edges in input
/// order; the model's own fields written as the attributes of docs/formats.md.
std::string write_dot(const Graph& g);

/// A JSON summary of \p g (nodes, edges, engines) for scripts.
std::string write_json_summary(const Graph& g);

/// Writes \p content to \p path through a temporary file in the same folder
/// and a rename, so \p path is either untouched or complete ("-" = stdout).
/// \throws InputError if the file cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

/// Reads a whole file. \throws InputError if it cannot be read.
std::string read_file(const std::string& path);

} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_FORMATS_HPP
