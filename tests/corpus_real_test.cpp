//===- corpus_real_test.cpp - Every real graph, both twins, counts from SOURCES.md
///
/// The expected number of removed edges of each file is read from the
/// `redundant` column of corpus/real/SOURCES.md, which was computed outside
/// this project (and cross-checked with Graphviz tred), never from our output.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/implementations.hpp"

namespace depreduce {
namespace {

std::filesystem::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d ? d : ".";
}

struct Row {
  std::string file;
  std::string redundant; ///< a number, or "n/a (cyclic)"
};

/// The file table of SOURCES.md: `| `path` | ... | redundant | TR edges |`.
std::vector<Row> read_sources_table() {
  std::ifstream in(source_dir() / "corpus" / "real" / "SOURCES.md");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    // cells[0] is empty (before the first '|'); the redundant column is the
    // second to last non-empty one.
    while (!cells.empty() && cells.back().empty()) cells.pop_back();
    if (cells.size() < 15) continue; // the layout table above has 3 columns
    std::string file = cells[1];
    if (file.size() > 2 && file.front() == '`') file = file.substr(1, file.size() - 2);
    rows.push_back({file, cells[cells.size() - 2]});
  }
  return rows;
}

TEST(CorpusReal, SourcesTableListsEveryFile) {
  auto rows = read_sources_table();
  ASSERT_EQ(rows.size(), 34u);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir() / "corpus" / "real"))
    if (entry.is_regular_file() && entry.path().filename() != "SOURCES.md") ++files;
  EXPECT_EQ(files, rows.size());
}

class CorpusRealFile : public ::testing::TestWithParam<Row> {};

TEST_P(CorpusRealFile, RemovedEdgesMatchSourcesTable) {
  const Row& row = GetParam();
  const std::string path = (source_dir() / "corpus" / "real" / row.file).string();
  InputGraph in = formats::read_graph(path);
  if (row.redundant.rfind("n/a", 0) == 0) {
    try {
      make_program_order(std::move(in));
      FAIL() << "cyclic graph accepted";
    } catch (const InputError& e) {
      EXPECT_TRUE(e.is_cycle()) << e.what();
    }
    return;
  }
  const std::size_t expected = std::stoul(row.redundant);
  Graph g = make_program_order(std::move(in));
  for (const auto& impl : testing::reduction_impls()) {
    Reduction r = impl.reduce(g, {}, nullptr);
    EXPECT_EQ(r.removed.size(), expected) << impl.name;
    std::size_t demoted = 0;
    for (const RemovedEdge& x : r.removed) demoted += x.demoted_to_retain;
    EXPECT_EQ(kept_edges(g, r).size() + r.removed.size() - demoted, g.edges.size()) << impl.name;
  }
  EXPECT_EQ(reduce(g), reference::reduce(g));
}

INSTANTIATE_TEST_SUITE_P(AllFiles, CorpusRealFile, ::testing::ValuesIn(read_sources_table()),
                         [](const auto& info) {
                           std::string name = info.param.file;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

} // namespace
} // namespace depreduce
