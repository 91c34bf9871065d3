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
#include <algorithm>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reducer.hpp"
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
  const auto gcc_sched = source_dir() / "corpus" / "real" / "gcc-sched"; // its own manifest (section 7)
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir() / "corpus" / "real"))
    if (entry.is_regular_file() && entry.path().filename() != "SOURCES.md" &&
        entry.path().string().rfind(gcc_sched.string(), 0) != 0)
      ++files;
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

/// One row of corpus/real/gcc-sched/regions/regions.tsv (SOURCES.md section 7):
/// counts computed by extract.py's own closure and cross-checked with tred.
struct Region {
  std::string file;
  std::size_t nodes = 0, edges = 0, redundant = 0;
};

std::vector<Region> read_regions() {
  std::ifstream in(source_dir() / "corpus" / "real" / "gcc-sched" / "regions" / "regions.tsv");
  std::vector<Region> rows;
  std::string line;
  std::getline(in, line); // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    Region r;
    ss >> r.file >> r.nodes >> r.edges >> r.redundant;
    if (!r.file.empty()) rows.push_back(r);
  }
  return rows;
}

// Every GCC scheduling region, through both twins, the
// Reducer (one object for all regions, so stale scratch shows) and its array
// entry, against the manifest's count.
TEST(CorpusGccSched, EveryRegionMatchesTheManifest) {
  const std::vector<Region> rows = read_regions();
  ASSERT_GE(rows.size(), 400u);
  std::size_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(source_dir() / "corpus" / "real" / "gcc-sched" / "regions"))
    files += entry.path().extension() == ".dot";
  EXPECT_EQ(files, rows.size());
  Reducer reducer;
  Reduction red;
  std::size_t total_redundant = 0;
  for (const Region& row : rows) {
    SCOPED_TRACE(row.file);
    Graph g = make_program_order(
        formats::read_graph((source_dir() / "corpus" / "real" / "gcc-sched" / "regions" / row.file).string()));
    ASSERT_EQ(g.nodes.size(), row.nodes);
    ASSERT_EQ(g.edges.size(), row.edges);
    for (const auto& impl : testing::reduction_impls())
      EXPECT_EQ(impl.reduce(g, {}, nullptr).removed.size(), row.redundant) << impl.name;
    ASSERT_TRUE(reducer.reduce(g, red).ok());
    EXPECT_EQ(red, reduce(g));
    std::vector<std::uint32_t> src, dst;
    for (const Edge& e : g.edges) src.push_back(e.src), dst.push_back(e.dst);
    std::vector<std::uint8_t> keep(src.size());
    ASSERT_TRUE(reducer.reduce_edges(static_cast<std::uint32_t>(g.nodes.size()), src, dst, keep).ok());
    EXPECT_EQ(static_cast<std::size_t>(std::count(keep.begin(), keep.end(), 0)), row.redundant);
    total_redundant += row.redundant;
  }
  EXPECT_EQ(total_redundant, 2123u); // SOURCES.md section 7
}

} // namespace
} // namespace depreduce
