//===- props/dot_reader_props.cpp - DOT write -> read properties --------===//
///
/// \file
/// Random graphs (names and values over an alphabet with quotes, brackets,
/// blanks, '%', non-ASCII bytes; model fields; parallel parts; subgraphs;
/// defaults) through make_program_order -> write_dot -> formats::read_dot ->
/// make_program_order:
///  - DotReader.WriteReadRoundTrips: the same graph comes back (attributes
///    compared as sets and modulo HTML brackets, docs/formats.md "What is not
///    preserved");
///  - DotReader.FastEqualsCgraphOnWrittenText: on the written text the fast
///    reader and its twin (cgraph) give the same InputGraph.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "dot_reader_diff.hpp"

namespace {

using namespace depreduce;

std::string gen_text(bool allow_newline) {
  static const char* pieces[] = {"a", "b", "x1", " ", "\"", "<", ">", "%", "-", ".", "1", "_", "\xc3\xa9", "node", "=", ";", "{", "}"};
  const int n = *rc::gen::inRange(0, 6);
  std::string s;
  for (int i = 0; i < n; ++i) s += pieces[*rc::gen::inRange<std::size_t>(0, std::size(pieces))];
  if (allow_newline && s.find('"') == std::string::npos && *rc::gen::inRange(0, 6) == 0) s += "\nz";
  return s;
}

AttrList gen_attrs(int max) {
  static const char* keys[] = {"label", "color", "shape", "x y", "\"k\"", "w"};
  AttrList a;
  const int n = *rc::gen::inRange(0, max + 1);
  // Values are never "": an empty value is "not set" in cgraph (and in the model).
  for (int i = 0; i < n; ++i) set_attr(a, keys[*rc::gen::inRange<std::size_t>(0, std::size(keys))], "v" + gen_text(true));
  return a;
}

InputGraph gen_graph() {
  InputGraph g;
  g.file = "gen";
  g.name = *rc::gen::inRange(0, 3) == 0 ? std::string() : gen_text(false);
  if (g.name.size() > 1 && g.name[0] == '%' && g.name.find_first_not_of("0123456789", 1) == std::string::npos)
    g.name += "x"; // "%<digits>" is cgraph's name for an anonymous graph (docs/formats.md)
  g.strict = *rc::gen::inRange(0, 4) == 0;
  const int n = *rc::gen::inRange(1, 12);
  const bool engines = *rc::gen::inRange(0, 2) == 0;
  if (engines) g.num_engines = static_cast<std::uint32_t>(*rc::gen::inRange(1, 5));
  g.graph_attrs = gen_attrs(2);
  g.node_defaults = gen_attrs(1);
  g.edge_defaults = gen_attrs(1);
  for (int i = 0; i < n; ++i) {
    Node v;
    v.name = gen_text(false) + "#" + std::to_string(i); // unique
    v.input_index = static_cast<std::uint32_t>(i);
    v.attrs = gen_attrs(2);
    if (engines && *rc::gen::inRange(0, 2)) v.engine = static_cast<Engine>(*rc::gen::inRange<int>(0, static_cast<int>(g.num_engines)));
    if (*rc::gen::inRange(0, 4) == 0) v.async_window = *rc::gen::inRange(0, 2) ? kAsyncInfinite : 2;
    v.barrier = *rc::gen::inRange(0, 5) == 0;
    if (*rc::gen::inRange(0, 4) == 0) v.reads.push_back(ByteRange{"sbuf", 0, 64});
    g.nodes.push_back(std::move(v));
  }
  const int m = *rc::gen::inRange(0, 3 * n);
  for (int i = 0; i < m; ++i) {
    int a = *rc::gen::inRange(0, n), b = *rc::gen::inRange(0, n);
    if (a > b) std::swap(a, b);
    // A strict graph holds one edge per pair (make_program_order merges the
    // others but keeps every self-loop, which a strict DOT graph cannot).
    if (g.strict && a == b &&
        std::any_of(g.edges.begin(), g.edges.end(), [&](const Edge& x) { return x.src == x.dst && x.src == static_cast<NodeId>(a); }))
      continue;
    Edge e;
    e.src = static_cast<NodeId>(a);
    e.dst = static_cast<NodeId>(b);
    e.kinds = KindSet::from_bits(static_cast<std::uint8_t>(*rc::gen::inRange(0, 16)));
    e.flags = FlagSet::from_bits(static_cast<std::uint8_t>(*rc::gen::inRange(1, 4)));
    e.attrs = gen_attrs(1);
    e.input_index = static_cast<std::uint32_t>(i);
    g.edges.push_back(std::move(e));
  }
  // A reader keeps per node/edge only the values that differ from the default.
  auto differing = [](AttrList& a, const AttrList& defaults) {
    erase_if(a, [&](const auto& kv) { const std::string* d = find_attr(defaults, kv.first); return d && *d == kv.second; });
  };
  for (Node& v : g.nodes) differing(v.attrs, g.node_defaults);
  for (Edge& e : g.edges) differing(e.attrs, g.edge_defaults);
  const int subs = *rc::gen::inRange(0, 3);
  for (int i = 0; i < subs; ++i) {
    Subgraph s;
    s.name = *rc::gen::inRange(0, 2) ? "cluster_" + std::to_string(i) : std::string();
    s.attrs = gen_attrs(1);
    differing(s.attrs, g.graph_attrs); // a subgraph keeps what differs from its parent
    for (int k = 0; k < n; ++k)
      if (*rc::gen::inRange(0, 3) == 0) s.nodes.push_back(static_cast<NodeId>(k));
    g.subgraphs.push_back(std::move(s));
  }
  return g;
}

std::string unhtml(std::string v) {
  while (v.size() >= 2 && v.front() == '<' && v.back() == '>') {
    int nest = 0;
    bool whole = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '<') ++nest;
      else if (v[i] == '>' && --nest == 0 && i + 1 != v.size()) whole = false;
    }
    if (!whole || nest != 0) break;
    v = v.substr(1, v.size() - 2);
  }
  return v;
}

AttrList as_set(AttrList a) {
  for (auto& kv : a) kv.second = unhtml(kv.second);
  std::sort(a.begin(), a.end());
  return a;
}

/// What a write/read round trip keeps: everything but attribute order,
/// HTML-ness, lines and subgraph structure of nodes the writer cannot place.
std::string canonical(const Graph& g) {
  // A pair written as its parts cannot stay strict (docs/formats.md, write_dot).
  const bool parts = std::any_of(g.edges.begin(), g.edges.end(), [](const Edge& e) { return parts_to_write(e).size() > 1; });
  std::string out = g.name + "|" + std::to_string(g.strict && !parts) + "|" + std::to_string(g.num_engines) + "\n";
  auto attrs = [&](const AttrList& a) {
    std::string s;
    for (const auto& [k, v] : as_set(a)) s += "[" + k + "=" + v + "]";
    return s;
  };
  out += attrs(g.graph_attrs) + attrs(g.node_defaults) + attrs(g.edge_defaults) + "\n";
  for (const Node& v : g.nodes)
    out += v.name + " " + std::to_string(v.engine) + " " + std::to_string(v.async_window) + " " +
           std::to_string(v.barrier) + " " + formats::format_byte_ranges(v.reads) + attrs(v.attrs) + "\n";
  for (const Edge& e : g.edges)
    out += std::to_string(e.src) + ">" + std::to_string(e.dst) + " " + to_string(e.kinds) + " " + to_string(e.flags) +
           " " + to_string(e.retain_only_kinds) + " " + std::to_string(e.unlabelled_wait_part) + attrs(e.attrs) + "\n";
  for (const Edge& e : g.self_loops) out += "loop " + std::to_string(e.src) + attrs(e.attrs) + "\n";
  std::function<void(const std::vector<Subgraph>&)> subs = [&](const std::vector<Subgraph>& v) {
    for (const Subgraph& s : v) {
      out += "S " + s.name + attrs(s.attrs) + ":";
      for (NodeId k : s.nodes) out += " " + std::to_string(k);
      out += "\n";
      subs(s.children);
    }
  };
  subs(g.subgraphs);
  return out;
}

} // namespace

RC_GTEST_PROP(DotReader, WriteReadRoundTrips, ()) {
  const Graph g = make_program_order(gen_graph());
  const std::string text = formats::write_dot(g);
  const Graph back = make_program_order(formats::read_dot(text, "written.dot"));
  RC_ASSERT(canonical(back) == canonical(g));
  // Written twice, the text is the same (the writer is deterministic on what it read).
  RC_ASSERT(formats::write_dot(back) == formats::write_dot(make_program_order(formats::read_dot(formats::write_dot(back)))));
}

RC_GTEST_PROP(DotReader, FastEqualsCgraphOnWrittenText, ()) {
  const std::string text = formats::write_dot(make_program_order(gen_graph()));
  const auto fast = formats::outcome_of([&] { return formats::read_dot(text, "w.dot"); });
  const auto ref = formats::outcome_of([&] { return formats::reference::read_dot(text, "w.dot"); });
  const auto why = formats::mismatch(fast, ref);
  if (why) RC_FAIL(*why + "\n" + text + "\n--- fast\n" + formats::describe(fast) + "--- cgraph\n" + formats::describe(ref));
}

namespace {

/// A byte-range list the way people and tools write them: 0 to 3 ranges,
/// names with '.', '-', '_' and digits, decimal or hexadecimal bounds near 0
/// and near 2^64, blanks anywhere; then sometimes one piece of it replaced by
/// a stray token (a missing or doubled mark, a digit-led name, a sign, an
/// overlong number, a bound pair with lo > hi).
std::string gen_byte_range_list() {
  static const char* blanks[] = {"", "", "", " ", "\t", "\n ", "\v", "\f"};
  static const char* spaces[] = {"sbuf", "psum", "a.b-c_d", "_x", "-", ".", "s1"};
  static const char* numbers[] = {"0", "1", "7", "64", "0x10", "0X1f", "0xFFFFFFFFFFFFFFFF", "0x00000000000000001",
                                  "18446744073709551615", "18446744073709551616", "00000000000000000001",
                                  "0x10000000000000000", "99999999999999999999"};
  static const char* strays[] = {"", ",", ":", "[", ")", "]", "1a", "-1", "+1", "0x", "0xg", "1.5", "x", "(", "\"",
                                 ",,", "a:[2,1)", "a:[0x2,1)"};
  auto blank = [] { return std::string(blanks[*rc::gen::inRange<std::size_t>(0, std::size(blanks))]); };
  std::vector<std::string> pieces;
  const int ranges = *rc::gen::inRange(0, 4);
  for (int r = 0; r < ranges; ++r) {
    if (r > 0) pieces.push_back(",");
    for (std::string p : {std::string(spaces[*rc::gen::inRange<std::size_t>(0, std::size(spaces))]), std::string(":"),
                          std::string("["), std::string(numbers[*rc::gen::inRange<std::size_t>(0, std::size(numbers))]),
                          std::string(","), std::string(numbers[*rc::gen::inRange<std::size_t>(0, std::size(numbers))]),
                          std::string(")")})
      pieces.push_back(p);
  }
  if (*rc::gen::inRange(0, 3) == 0) {
    const std::string stray = strays[*rc::gen::inRange<std::size_t>(0, std::size(strays))];
    if (pieces.empty() || *rc::gen::arbitrary<bool>()) pieces.insert(pieces.begin() + *rc::gen::inRange<std::size_t>(0, pieces.size() + 1), stray);
    else pieces[*rc::gen::inRange<std::size_t>(0, pieces.size())] = stray;
  }
  std::string text = blank();
  for (const std::string& p : pieces) text += p + blank();
  return text;
}

template <class Parse> std::string parsed(Parse parse, const std::string& text) {
  try {
    return "ok " + formats::format_byte_ranges(parse(text, "f", 7));
  } catch (const InputError& e) {
    return "rejected on line " + std::to_string(e.line());
  }
}

} // namespace

/// The reference reader's own byte-range parser accepts exactly the lists
/// formats::parse_byte_ranges() accepts, with the same ranges, and its
/// writer spells them as format_byte_ranges() does.
RC_GTEST_PROP(DotReader, ReferenceByteRangeParserAgreesWithTheOptimized, ()) {
  const std::string text = gen_byte_range_list();
  const std::string optimized = parsed(formats::parse_byte_ranges, text);
  const std::string oracle = parsed(formats::reference::read_byte_ranges, text);
  RC_CLASSIFY(optimized.rfind("ok", 0) == 0, "accepted");
  RC_LOG() << "text: " << text << "\n";
  RC_ASSERT(optimized == oracle);
  if (optimized.rfind("ok", 0) == 0) {
    const auto ranges = formats::parse_byte_ranges(text, "f", 7);
    RC_ASSERT(formats::reference::write_byte_ranges(ranges) == formats::format_byte_ranges(ranges));
  }
}
