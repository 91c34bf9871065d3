//===- parallel_parts_test.cpp - docs/model.md's parallel-parts table, row by row ===//
///
/// The table in docs/model.md lists every combination of
/// one, two and three parts {unlabelled, data kinds (flow), ordered only,
/// flow|ordered} x {wait, retain, wait|retain} between one pair, with what
/// the pair demands, the merged kinds and flags, and what the writer emits.
/// The table is generated from SPEC §2 by docs/parallel_parts_table.py; this
/// test reads it back and checks each row (one named test per row,
/// `Rows/ParallelParts.Row/<parts>`) against
///  - the production merge (make_program_order: is_wait, is_completion_edge,
///    kinds, flags) and the writer (parts_to_write, write_dot -> read_dot ->
///    the same merged edge);
///  - the oracle on the input as read (reference::happens_before);
///  - the reduction: with another C path a -> m -> b the pair is removed iff
///    it carries WAIT (demoted iff RETAIN); with only an S path (a S m C b)
///    iff it demands S; the reduced graph keeps both relations.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {
namespace {

struct Row {
  std::string parts, demand, kinds, flags, written;
  std::size_t line = 0;
};

std::vector<std::string> cells_of(const std::string& line) {
  // Split on '|' not preceded by '\'; unescape "\|".
  std::vector<std::string> cells;
  std::string cur;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') { cur += '|'; ++i; continue; }
    if (line[i] == '|') { cells.push_back(cur); cur.clear(); continue; }
    cur += line[i];
  }
  cells.push_back(cur);
  for (std::string& c : cells) {
    while (!c.empty() && c.front() == ' ') c.erase(c.begin());
    while (!c.empty() && c.back() == ' ') c.pop_back();
  }
  // "| a | b |" -> "", a, b, ""
  if (cells.size() >= 2) cells = std::vector<std::string>(cells.begin() + 1, cells.end() - 1);
  return cells;
}

std::vector<Row> read_table() {
  const char* dir = std::getenv("DEPREDUCE_SOURCE_DIR");
  std::ifstream in(std::string(dir ? dir : ".") + "/docs/model.md");
  std::vector<Row> rows;
  std::string line;
  bool inside = false;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find("<!-- parallel-parts table") != std::string::npos) { inside = true; continue; }
    if (line.find("<!-- end of parallel-parts table") != std::string::npos) break;
    if (!inside || line.rfind("| ", 0) != 0 || line.rfind("| parts", 0) == 0) continue;
    std::vector<std::string> c = cells_of(line);
    if (c.size() != 5) continue;
    rows.push_back({c[0], c[1], c[2], c[3], c[4], number});
  }
  return rows;
}

struct Spelled {
  KindSet kinds;
  FlagSet flags;
};

/// "unlabelled/wait + flow|ordered/retain" -> parts.
std::vector<Spelled> parse_parts(const std::string& text) {
  std::vector<Spelled> out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find(" + ", i);
    if (j == std::string::npos) j = text.size();
    const std::string part = text.substr(i, j - i);
    const std::size_t slash = part.find('/');
    const std::string k = part.substr(0, slash), f = part.substr(slash + 1);
    out.push_back({k == "unlabelled" ? KindSet() : *parse_kinds(k), *parse_flags(f)});
    i = j + 3;
  }
  return out;
}

std::string spell_kinds(KindSet k) { return k.empty() ? "unlabelled" : to_string(k); }

/// a -> b written with \p parts; optionally a third node m with a -> m and
/// m -> b (kinds given; "" = unlabelled).
InputGraph pair_graph(const std::vector<Spelled>& parts, const char* a_to_m = nullptr) {
  InputGraph in;
  in.file = "<row>";
  for (const char* name : {"a", "b", "m"}) {
    if (!a_to_m && std::string(name) == "m") break;
    Node v;
    v.name = name;
    in.nodes.push_back(v);
  }
  auto add = [&](NodeId s, NodeId d, KindSet k, FlagSet f) {
    Edge e;
    e.src = s;
    e.dst = d;
    e.kinds = k;
    e.flags = f;
    e.line = static_cast<std::uint32_t>(in.edges.size() + 1);
    in.edges.push_back(e);
  };
  if (a_to_m) {
    add(0, 2, *parse_kinds(a_to_m), FlagSet::wait()); // a -> m
    add(2, 1, KindSet(), FlagSet::wait());            // m -> b (C)
  }
  for (const Spelled& p : parts) add(0, 1, p.kinds, p.flags);
  return in;
}

const Edge& the_pair(const Graph& g) {
  for (const Edge& e : g.edges)
    if (g.nodes[e.src].name == "a" && g.nodes[e.dst].name == "b") return e;
  throw std::logic_error("no a -> b");
}

class ParallelParts : public ::testing::TestWithParam<Row> {};

TEST_P(ParallelParts, Row) {
  const Row& row = GetParam();
  SCOPED_TRACE("docs/model.md:" + std::to_string(row.line) + ": " + row.parts);
  const std::vector<Spelled> parts = parse_parts(row.parts);

  // The production merge.
  const InputGraph in = pair_graph(parts);
  const Graph g = make_program_order(in);
  ASSERT_EQ(g.edges.size(), 1u);
  const Edge& e = g.edges.front();
  const std::string demand = !is_wait(e) ? "none" : is_completion_edge(e) ? "C" : "S";
  EXPECT_EQ(demand, row.demand);
  EXPECT_EQ(spell_kinds(e.kinds), row.kinds);
  EXPECT_EQ(to_string(e.flags), row.flags);

  // The oracle on the input as read.
  const reference::HappensBefore hb = reference::happens_before(in);
  EXPECT_EQ(hb.completed[0][1], row.demand == "C");
  EXPECT_EQ(hb.issued[0][1], row.demand != "none");

  // The writer: the parts it emits, and what reads back.
  std::string written;
  for (const EdgePart& p : parts_to_write(e))
    written += (written.empty() ? "" : " + ") + spell_kinds(p.kinds) + "/" + to_string(p.flags);
  EXPECT_EQ(written, row.written);
  const Graph back = make_program_order(formats::read_dot(formats::write_dot(g), "<written>"));
  ASSERT_EQ(back.edges.size(), 1u);
  EXPECT_EQ(back.edges.front().kinds, e.kinds);
  EXPECT_EQ(back.edges.front().flags, e.flags);
  EXPECT_EQ(back.edges.front().retain_only_kinds, e.retain_only_kinds);
  EXPECT_EQ(back.edges.front().unlabelled_wait_part, e.unlabelled_wait_part);

  // The reduction, with a C path and with an S path beside the pair.
  for (const char* a_to_m : {"", "ordered"}) {
    const InputGraph with_path = pair_graph(parts, a_to_m);
    const Graph h = make_program_order(with_path);
    const Reduction r = reduce(h);
    ASSERT_EQ(r, reference::reduce(with_path));
    const bool c_path = std::string(a_to_m).empty();
    const bool removed = !r.removed.empty();
    const bool expect_removed = row.demand != "none" && (c_path || row.demand == "S");
    EXPECT_EQ(removed, expect_removed) << (c_path ? "C path" : "S path");
    if (removed) {
      EXPECT_EQ(r.removed.front().demoted_to_retain, e.flags.has(Flag::Retain));
      EXPECT_EQ(&h.edges[r.removed.front().edge], &the_pair(h));
    }
    EXPECT_EQ(reference::happens_before(reference::as_input(apply(h, r))), reference::happens_before(with_path));
  }
}

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  std::string name;
  for (char c : info.param.parts) {
    if (std::isalnum(static_cast<unsigned char>(c))) name += c;
    else if (c == '/') name += '_';
    else if (c == '|') name += 'X';
    else if (c == '+') name += "__";
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Rows, ParallelParts, ::testing::ValuesIn(read_table()), row_name);

TEST(ParallelPartsTable, HasEveryCombination) {
  // 12 single parts, 78 pairs, 364 triples (with repetition).
  EXPECT_EQ(read_table().size(), 12u + 78u + 364u);
}

} // namespace
} // namespace depreduce
