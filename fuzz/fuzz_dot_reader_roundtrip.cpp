//===- fuzz/fuzz_dot_reader_roundtrip.cpp - DOT reader/writer round trip ----------===//
///
/// \file
/// bytes -> read_dot (InputError is fine) -> make_program_order (InputError
/// is fine) -> write_dot -> read_dot -> make_program_order must succeed and
/// give the same nodes (names, attributes, model fields), edges (endpoints,
/// kinds, flags, attributes), self-loops, header and subgraphs. Attribute
/// lists are compared as sets: their order follows cgraph's declaration order,
/// which the writer cannot always reproduce. Values are compared modulo HTML
/// brackets: cgraph interns strings, so whether a text is HTML
/// depends on where it is first seen, and the model keeps HTML as "<...>"
/// text (both documented in docs/formats.md, "What is not preserved").
///
/// Inputs above 64 KiB are skipped. cgraph 2.42 leaks parser memory on some
/// syntax errors: run with ASAN_OPTIONS=detect_leaks=0 (docs/fuzzing.md).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"

namespace {

using namespace depreduce;

/// Strips HTML brackets ("<<b>>" -> "<b>" -> "b") while they balance like a
/// DOT HTML string.
std::string unhtml(std::string v) {
  for (;;) {
    if (v.size() < 2 || v.front() != '<' || v.back() != '>') return v;
    int nest = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '<') ++nest;
      else if (v[i] == '>' && --nest == 0) {
        if (i + 1 != v.size()) return v;
        break;
      }
    }
    if (nest != 0) return v;
    v = v.substr(1, v.size() - 2);
  }
}

std::string attrs_text(AttrList a) {
  for (auto& kv : a) kv.second = unhtml(kv.second);
  std::sort(a.begin(), a.end());
  std::string s = "{";
  for (const auto& [k, v] : a) s += " [" + k + "]=[" + v + "]";
  return s + " }";
}

void subgraph_text(const Graph& g, const Subgraph& s, int depth, std::string& out) {
  out += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "S [" + s.name + "] " + attrs_text(s.attrs) + ":";
  // Members in node order: cgraph lists them in the order nodes were created,
  // which the writer changes on engine graphs not in program order.
  std::vector<NodeId> members = s.nodes;
  std::sort(members.begin(), members.end());
  for (NodeId v : members) out += " [" + g.nodes.at(v).name + "]";
  out += "\n";
  for (const Subgraph& c : s.children) subgraph_text(g, c, depth + 1, out);
}

std::string canonical(const Graph& g) {
  std::string out = "graph [" + g.name + "] strict=" + std::to_string(g.strict) +
                    " engines=" + std::to_string(g.num_engines) + " " + attrs_text(g.graph_attrs) +
                    " node" + attrs_text(g.node_defaults) + " edge" + attrs_text(g.edge_defaults) + "\n";
  for (const Node& n : g.nodes)
    out += "N [" + n.name + "] engine=" + std::to_string(n.engine) + " async=" + std::to_string(n.async_window) +
           " barrier=" + std::to_string(n.barrier) + " reads=" + formats::format_byte_ranges(n.reads) +
           " writes=" + formats::format_byte_ranges(n.writes) + " " + attrs_text(n.attrs) + "\n";
  for (const auto* list : {&g.edges, &g.self_loops})
    for (const Edge& e : *list)
      out += "E [" + g.nodes.at(e.src).name + "] -> [" + g.nodes.at(e.dst).name + "] kind=" + to_string(e.kinds) +
             " flags=" + to_string(e.flags) + " " + attrs_text(e.attrs) + "\n";
  for (const Subgraph& s : g.subgraphs) subgraph_text(g, s, 0, out);
  return out;
}

[[noreturn]] void fail(std::string_view input, const std::string& written, const std::string& a,
                       const std::string& b, const char* why) {
  std::fprintf(stderr, "fuzz_dot_reader_roundtrip: %s\n--- input ---\n%.*s\n--- written ---\n%s\n--- first read ---\n%s\n"
                       "--- second read ---\n%s\n",
               why, static_cast<int>(input.size()), input.data(), written.c_str(), a.c_str(), b.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Graph first;
  try {
    first = make_program_order(formats::read_dot(input, "<fuzz>"));
  } catch (const InputError&) {
    return 0; // bad input is rejected with an error: fine
  }
  const std::string written = formats::write_dot(first);
  const std::string a = canonical(first);
  Graph second;
  try {
    second = make_program_order(formats::read_dot(written, "<written>"));
  } catch (const InputError& e) {
    fail(input, written, a, e.what(), "write_dot output does not read back");
  }
  const std::string b = canonical(second);
  if (a != b) fail(input, written, a, b, "round trip changed the graph");
  return 0;
}
