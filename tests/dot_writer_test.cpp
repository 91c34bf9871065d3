//===- tests/dot_writer_test.cpp - The one-buffer DOT writer ------------===//
///
/// \file
/// formats::write_dot against the writer it replaced (reference::write_dot):
/// on every file of corpus/real, byte for byte with ports written as
/// attributes, and with ports on the endpoints (the default) the same graph
/// back after a read; the edge list as `src<TAB>dst` lines; and the writer
/// on two threads against itself on one.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/workloads/workloads.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

std::filesystem::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d ? d : ".";
}

/// \p g with every attribute list sorted: a port on an endpoint is declared
/// after the statement's attributes, so attribute order may change (docs/formats.md).
Graph sorted_attrs(Graph g) {
  for (Node& n : g.nodes) std::sort(n.attrs.begin(), n.attrs.end());
  for (Edge& e : g.edges) std::sort(e.attrs.begin(), e.attrs.end());
  for (Edge& e : g.self_loops) std::sort(e.attrs.begin(), e.attrs.end());
  std::sort(g.edge_defaults.begin(), g.edge_defaults.end());
  return g;
}

TEST(DotWriter, SameBytesAsTheReplacedWriterOnTheWholeCorpusExceptPorts) {
  std::size_t files = 0, with_ports = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir() / "corpus")) {
    if (!entry.is_regular_file()) continue;
    const std::string p = entry.path().string();
    if (p.find("/fuzz_") != std::string::npos && p.find("/fuzz_dot_reader_roundtrip/") == std::string::npos &&
        p.find("/fuzz_dot_reader_diff/") == std::string::npos)
      continue; // other targets' byte seeds
    const std::string ext = entry.path().extension().string();
    if (ext == ".md" || ext == ".txt" || ext == ".orch" || ext == ".py") continue;
    Graph g;
    try {
      g = make_program_order(read_graph(p));
    } catch (const InputError&) {
      continue; // rejected inputs (syntax errors, cycles) are the readers' tests
    }
    SCOPED_TRACE(p);
    const std::string plain = write_dot(g, WriteOptions{.inline_ports = false});
    EXPECT_EQ(plain, reference::write_dot(g));
    const std::string text = write_dot(g);
    if (text != plain) ++with_ports;
    // Ports on the endpoints read back as the same attributes. (Subgraphs
    // nested near cgraph's parser-stack limit can be written deeper than it
    // allows: then cgraph rejects the text too, and the case is skipped.)
    Graph back;
    try {
      back = make_program_order(read_dot(text, "w.dot"));
    } catch (const InputError& e) {
      EXPECT_THROW(reference::read_dot(text, "w.dot"), InputError) << e.what();
      continue;
    }
    EXPECT_EQ(write_dot(sorted_attrs(back), WriteOptions{.inline_ports = false}),
              write_dot(sorted_attrs(make_program_order(read_dot(plain, "p.dot"))), WriteOptions{.inline_ports = false}));
    ++files;
  }
  EXPECT_GE(files, 300u);
  EXPECT_GE(with_ports, 1u); // corpus/real has ports (b100.gv, world.gv...)
}

TEST(DotWriter, PortsAreWrittenAsTheInputWroteThem) {
  const Graph g = make_program_order(read_dot("digraph { a:p -> b; c -> d:<h> [x=1]; e:n:s -> f }"));
  const std::string text = write_dot(g);
  EXPECT_NE(text.find("\"a\":\"p\" -> \"b\";"), std::string::npos) << text;
  EXPECT_NE(text.find("\"c\" -> \"d\":<h> [\"x\"=\"1\"];"), std::string::npos) << text;
  EXPECT_NE(text.find("\"e\":\"n:s\" -> \"f\";"), std::string::npos) << text;
}

/// Byte ranges go straight into the buffer unless a space name needs
/// quoting (a Graph built in code may hold any name): both ways must give
/// the replaced writer's bytes, and the quoted text must read back as DOT.
TEST(DotWriter, ByteRangesWithAnySpaceNameAreQuotedAsTheReplacedWriterQuotesThem) {
  Graph g;
  g.num_engines = 1;
  for (const char* space : {"sbuf", "a\"b", "back\\slash", "new\nline", "a_very_long_space_name_indeed"}) {
    Node n;
    n.name = std::string("n") + std::to_string(g.nodes.size());
    n.engine = 0;
    n.input_index = static_cast<std::uint32_t>(g.nodes.size());
    n.reads = {{space, 0, 18446744073709551615ull}, {"psum", 7, 9}};
    n.writes = {{space, 1, 2}};
    g.nodes.push_back(n);
  }
  const std::string text = write_dot(g, WriteOptions{.inline_ports = false});
  EXPECT_EQ(text, reference::write_dot(g));
  EXPECT_NE(text.find("[\"engine\"=\"0\", \"reads\"=\"sbuf:[0,18446744073709551615),psum:[7,9)\", \"writes\"=\"sbuf:[1,2)\"]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"reads\"=\"a\\\"b:[0,"), std::string::npos) << text;
}

/// What write_dot() gives through an AtomicOutput with \p tuning.
std::string through_a_file(const Graph& g, const detail::DotWriteTuning& tuning) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("dot_writer_test." + std::to_string(::getpid()) + ".dot");
  {
    AtomicOutput out(path.string());
    detail::write_dot_tuned(g, &out, WriteOptions{}, tuning);
    out.commit();
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  return text.str();
}

/// The node and edge statements split between two threads, chunk by chunk
/// (write_statements()): the same bytes as one thread, whatever the chunk
/// size, into a string and through a file, on graphs with attributes,
/// engines, byte ranges, merged parts and self-loops, and one large enough
/// for the 1 MiB hand-overs to fall inside chunks.
TEST(DotWriter, TwoThreadsWriteTheSameBytesAsOne) {
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("small", make_program_order(read_dot(
                                   "digraph { node [shape=box]; a -> b [kind=flow, label=x]; a -> b [kind=anti, flags=retain]; "
                                   "b -> c; c -> c; d; subgraph cluster_0 { e -> f } }")));
  graphs.emplace_back("matmul", workloads::generate_workload(workloads::Workload::TiledMatmul, 3000, 7));
  graphs.emplace_back("dag", workloads::generate_workload(workloads::Workload::RandomDag, 30000, 3));
  for (const char* name : {"corpus/real/graphviz/rtest/graphs/b100.gv", "corpus/real/graphviz/graphs/directed/world.gv"}) {
    const std::filesystem::path p = source_dir() / name;
    ASSERT_TRUE(std::filesystem::exists(p)) << p;
    graphs.emplace_back(name, make_program_order(read_graph(p.string())));
  }
  const detail::DotWriteTuning one{.parallel_from = SIZE_MAX};
  std::size_t split = 0;
  for (const auto& [name, g] : graphs) {
    SCOPED_TRACE(name);
    const std::string want = detail::write_dot_tuned(g, nullptr, WriteOptions{}, one);
    ASSERT_EQ(want, write_dot(g)); // the default is the same text
    ASSERT_EQ(through_a_file(g, one), want);
    const std::size_t statements = g.nodes.size() + g.edges.size() + g.self_loops.size();
    for (std::size_t chunk : {1, 2, 3, 7, 64, 4096}) {
      if (chunk < 64 && statements > 20000) continue; // a hand-over per few statements: slow, and no new case
      SCOPED_TRACE("chunk " + std::to_string(chunk));
      const detail::DotWriteTuning two{.parallel_from = 0, .chunk = chunk};
      EXPECT_EQ(detail::write_dot_tuned(g, nullptr, WriteOptions{}, two), want);
      EXPECT_EQ(through_a_file(g, two), want);
      if (statements > 2 * chunk) ++split;
    }
  }
  EXPECT_GE(split, 20u); // most cases had at least three chunks
}

TEST(DotWriter, EdgeListIsOneLinePerMergedEdge) {
  const Graph g = make_program_order(read_dot("digraph { a -> b; a -> b; b -> c; c -> c }"));
  EXPECT_EQ(write_edge_list(g), "a\tb\nb\tc\n");
}

/// The value of \p n's attribute `label` ("<none>" if it has none).
std::string label_of(const Node& n) {
  for (const auto& [k, v] : n.attrs)
    if (k == "label") return std::string(v);
  return "<none>";
}

TEST(DotWriter, OddTrailingBackslashRunFromWfCommonsReadsBack) {
  // A WfCommons task named `C:\tmp\` (JSON "C:\\tmp\\"). In a
  // DOT quoted string `\"` is a quote, so the writer must give an odd run of
  // backslashes right before the closing quote one more backslash; without
  // it `"C:\tmp\"` runs on into the next statement and the file does not
  // read back. Ids that a quoted string cannot reproduce go out as HTML
  // strings (exact); a value gets the one more backslash (docs/formats.md: lossy).
  const std::string json = R"({"name": "w", "schemaVersion": "1.5", "workflow": {"specification": {"tasks": [
    {"name": "D:\\x\\", "id": "C:\\tmp\\", "parents": [], "children": ["b"]},
    {"name": "b", "id": "b", "parents": ["C:\\tmp\\"], "children": ["c"]},
    {"name": "E:\\\\\\", "id": "c", "parents": ["b"], "children": []}]},
    "execution": {"tasks": []}}})";
  const Graph g = make_program_order(read_wfjson(json, "w.json"));
  ASSERT_EQ(g.nodes[0].name, "C:\\tmp\\");
  for (const bool inline_ports : {true, false}) {
    const std::string text = write_dot(g, WriteOptions{.inline_ports = inline_ports});
    SCOPED_TRACE(text);
    Graph back;
    ASSERT_NO_THROW(back = make_program_order(read_dot(text, "w.dot")));
    const InputGraph oracle = reference::read_dot(text, "w.dot"); // cgraph reads it too
    ASSERT_EQ(back.nodes.size(), 3u);
    ASSERT_EQ(oracle.nodes.size(), 3u);
    EXPECT_EQ(back.nodes[0].name, "C:\\tmp\\");
    EXPECT_EQ(oracle.nodes[0].name, "C:\\tmp\\");
    EXPECT_EQ(back.nodes[1].name, "b");
    EXPECT_EQ(back.nodes[2].name, "c");
    ASSERT_EQ(back.edges.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) { // lines are the DOT file's own
      Edge e = back.edges[i];
      e.line = g.edges[i].line;
      EXPECT_EQ(e, g.edges[i]) << i;
    }
    // The labels: an odd run of one (D:\x\) or three (E:\\\) backslashes at
    // the end gets one more, and reads back with it.
    EXPECT_EQ(label_of(back.nodes[0]), "D:\\x\\\\");
    EXPECT_EQ(label_of(back.nodes[2]), "E:\\\\\\\\");
    // Written again, the graph read back is a fixed point.
    EXPECT_EQ(write_dot(back, WriteOptions{.inline_ports = inline_ports}), text);
  }
}

TEST(DotWriter, ValueOfEmptyAngleBracketsIsQuotedNotAnEmptyHtmlString) {
  // Found by DotWriterRoundTrip.PegasusDaxReadsBackAsTheSameGraph (a DAX
  // namespace="&lt;&gt;"), and DOT -> DOT loses it too: the value "<>" was
  // written as the HTML string <>, whose text is empty, and an empty value
  // reads back as not set, so `y="<>"` vanished on the second convert.
  const Graph g = make_program_order(read_dot(R"(digraph { a [y="<>", z="<b>"] })", "in.dot"));
  const std::string text = write_dot(g);
  EXPECT_NE(text.find(R"("y"="<>")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("z"=<b>)"), std::string::npos) << text; // non-empty HTML-like values stay HTML
  const Graph back = make_program_order(read_dot(text, "out.dot"));
  ASSERT_EQ(back.nodes.size(), 1u);
  EXPECT_EQ(back.nodes[0].attrs, g.nodes[0].attrs);
  EXPECT_EQ(write_dot(back), text);
}

} // namespace
} // namespace depreduce::formats
