//===- tests/dot_writer_test.cpp - The one-buffer DOT writer ------------===//
///
/// \file
/// formats::write_dot against the writer it replaced (reference::write_dot):
/// on every file of corpus/real, byte for byte with ports written as
/// attributes, and with ports on the endpoints (the default) the same graph
/// back after a read; the edge list as `src<TAB>dst` lines.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"

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
    if (p.find("/fuzz_") != std::string::npos && p.find("/fuzz_parse_dot/") == std::string::npos &&
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

TEST(DotWriter, EdgeListIsOneLinePerMergedEdge) {
  const Graph g = make_program_order(read_dot("digraph { a -> b; a -> b; b -> c; c -> c }"));
  EXPECT_EQ(write_edge_list(g), "a\tb\nb\tc\n");
}

} // namespace
} // namespace depreduce::formats
