//===- python/src/model_attrs.hpp - DOT model attributes -------*- C++ -*-===//
///
/// \file
/// The model attributes of docs/formats.md ("Model attributes") read from
/// the text of a NetworkX attribute, with the DOT reader's rules and
/// messages (formats/src/dot_reader.cpp, node_model_attr() and the edge
/// kind=/flags= rules), so that a graph built in Python reduces as its DOT
/// file does. The kinds, flags and byte ranges go through the library's own
/// parsers (parse_kinds(), parse_flags(), formats::parse_byte_ranges()).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PYTHON_MODEL_ATTRS_HPP
#define DEPREDUCE_PYTHON_MODEL_ATTRS_HPP

#include <cstdint>
#include <string>
#include <string_view>

#include "depreduce/graph.hpp"

namespace depreduce::python {

/// True for the node attributes that are model fields: engine, async,
/// barrier, reads, writes.
bool is_node_model_attr(std::string_view key) noexcept;
/// True for the edge attributes that are model fields: kind, flags.
bool is_edge_model_attr(std::string_view key) noexcept;

/// Sets the field of \p node that \p key (is_node_model_attr()) names from
/// \p value; an empty value means "not set" (the DOT reader's rule).
/// \throws InputError(\p file, 0, "node 'x': engine='y': expected ...") as
///   the DOT reader words it.
void set_node_model_attr(Node& node, std::string_view key, std::string_view value, const std::string& file);
/// The same for an edge's kind= or flags=; \p who names the edge
/// ("edge 'a' -> 'b'").
void set_edge_model_attr(Edge& edge, std::string_view key, std::string_view value, const std::string& who,
                         const std::string& file);
/// Parses the graph attribute engines= (1..kMaxEngines). \throws InputError.
std::uint32_t parse_engines_attr(std::string_view value, const std::string& file);

} // namespace depreduce::python

#endif
