//===- cli_options_test.cpp - One vocabulary of options ------------------===//
///
/// Runs the built `depreduce` binary: docs/cli.md's table of options by
/// command against every command's own --help (both ways), every cell of the
/// table accepted or refused as it says, a single-valued option given twice,
/// `-q` on a graph with self-loops, and explain, equiv, convert and verify on
/// a cyclic file with --cycles condense.
//===----------------------------------------------------------------------===//
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "depreduce/testing/cli_runner.hpp"

namespace {

using depreduce::testing::CliRun;
using depreduce::testing::slurp;

CliRun run(const std::string& args) { return depreduce::testing::run_cli(args); }

/// docs/cli.md's options table: option (its long name) -> the commands
/// marked "yes" in its row; \p commands gets the header's command columns.
std::map<std::string, std::set<std::string>> options_table(std::vector<std::string>& commands) {
  const char* root = std::getenv("DEPREDUCE_SOURCE_DIR");
  std::istringstream in(slurp(std::string(root ? root : ".") + "/docs/cli.md"));
  std::map<std::string, std::set<std::string>> table;
  std::string line;
  auto cells = [](const std::string& row) {
    std::vector<std::string> out;
    std::string cell;
    for (std::size_t i = 1; i < row.size(); ++i) {
      if (row[i] == '|' && row[i - 1] != '\\') {
        out.push_back(std::regex_replace(cell, std::regex("^\\s+|\\s+$"), ""));
        cell.clear();
      } else {
        cell += row[i];
      }
    }
    return out;
  };
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      if (line.rfind("| option |", 0) == 0) {
        std::vector<std::string> head = cells(line);
        for (std::size_t i = 1; i < head.size(); ++i) commands.push_back(head[i]);
        inside = true;
        std::getline(in, line); // |---|
      }
      continue;
    }
    if (line.empty() || line[0] != '|') break;
    std::vector<std::string> row = cells(line);
    std::smatch m;
    std::string first = row.at(0), name;
    static const std::regex long_name("`(--[a-z-]+)");
    for (std::sregex_iterator it(first.begin(), first.end(), long_name), end; it != end; ++it)
      name = (*it)[1];
    EXPECT_FALSE(name.empty()) << line;
    for (std::size_t i = 1; i < row.size() && i - 1 < commands.size(); ++i)
      if (row[i] == "yes") table[name].insert(commands[i - 1]);
      else EXPECT_EQ(row[i], "-") << line;
    table[name]; // a row with no "yes" still names an option
  }
  return table;
}

/// The long names of \p command's options, from its --help.
std::set<std::string> help_options(const std::string& command) {
  CliRun r = run(command + " --help");
  EXPECT_EQ(r.code, 0) << r.out;
  std::set<std::string> names;
  std::istringstream in(r.out);
  std::string line;
  const std::regex option("^\\s+(-[-A-Za-z0-9,]+)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, option)) continue;
    std::string spelled = m[1], longest;
    std::istringstream parts(spelled);
    for (std::string part; std::getline(parts, part, ',');)
      if (part.size() > longest.size()) longest = part;
    if (longest != "--help" && longest != "--help-all") names.insert(longest);
  }
  return names;
}

TEST(CliOptions, TableMatchesEveryCommandsHelp) {
  std::vector<std::string> commands;
  const auto table = options_table(commands);
  ASSERT_FALSE(commands.empty()) << "no '| option |' table in docs/cli.md";
  // The table's columns are the CLI's commands.
  CliRun top = run("--help");
  std::set<std::string> listed;
  std::istringstream in(top.out.substr(top.out.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex("^  ([a-z-]+)\\s"))) listed.insert(m[1]);
  }
  EXPECT_EQ(std::set<std::string>(commands.begin(), commands.end()), listed);
  for (const std::string& command : commands) {
    std::set<std::string> documented;
    for (const auto& [option, offered] : table)
      if (offered.count(command)) documented.insert(option);
    EXPECT_EQ(help_options(command), documented) << "docs/cli.md's options table, column " << command;
  }
}

class CliOptionCells : public depreduce::testing::TempDirTest {};

// Every cell of the shared options' rows: accepted (no usage error) where
// the table says yes, refused with exit 64 where it says no.
TEST_F(CliOptionCells, EveryCellAcceptedOrRefusedAsTheTableSays) {
  std::vector<std::string> commands;
  const auto table = options_table(commands);
  const std::string g = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  const std::string orch = slurp(std::string(std::getenv("DEPREDUCE_SOURCE_DIR")) +
                                 "/corpus/orchestration/phase_chain.orch");
  const std::string prog = write("p.orch", orch);
  const std::map<std::string, std::string> base = {
      {"reduce", "reduce " + g},     {"explain", "explain " + g + " a c"}, {"equiv", "equiv " + g + " " + g},
      {"convert", "convert " + g},   {"verify", "verify " + g},            {"build", "build " + g},
      {"expand", "expand " + g},     {"generate", "generate dag --size 5"}, {"window-report", "window-report " + g},
      {"fence", "fence " + prog}};
  const std::map<std::string, std::string> shared = {
      {"--format", "--format dot"}, {"--cycles", "--cycles condense"}, {"--kinds", "--kinds flow"},
      {"--impl", "--impl reference"}, {"--output", "-o " + path("out.dot")}, {"--json", "--json"},
      {"--quiet", "-q"}};
  for (const auto& [option, args] : shared) {
    ASSERT_TRUE(table.count(option)) << option << " has no row in docs/cli.md's options table";
    for (const std::string& command : commands) {
      std::string extra = args;
      if (option == "--output" && command == "fence") extra = "-o " + path("out.orch");
      if (option == "--impl" && command == "window-report") continue; // no such row cell: checked by --help
      const bool yes = table.at(option).count(command) != 0;
      CliRun r = run(base.at(command) + " " + extra);
      if (yes)
        EXPECT_NE(r.code, 64) << command << " " << extra << ": " << r.out;
      else {
        EXPECT_EQ(r.code, 64) << command << " " << extra << ": " << r.out;
        EXPECT_NE(r.out.find("not expected"), std::string::npos) << command << " " << extra << ": " << r.out;
      }
    }
  }
}

TEST_F(CliOptionCells, SingleValuedOptionGivenTwiceNamesBothValues) {
  const std::string g = write("g.dot", "digraph { a -> b }");
  CliRun f = run("reduce " + g + " --format dot --format stg");
  EXPECT_EQ(f.code, 64) << f.out;
  EXPECT_NE(f.out.find("'dot' and 'stg'"), std::string::npos) << f.out;
  CliRun o = run("convert " + g + " -o " + path("a.dot") + " -o " + path("b.dot"));
  EXPECT_EQ(o.code, 64) << o.out;
  EXPECT_NE(o.out.find("'" + path("a.dot") + "' and '" + path("b.dot") + "'"), std::string::npos) << o.out;
  CliRun k = run("equiv " + g + " " + g + " --kinds flow --kinds anti");
  EXPECT_EQ(k.code, 64) << k.out;
  EXPECT_NE(k.out.find("'flow' and 'anti'"), std::string::npos) << k.out;
  const std::string prog = write("n.orch", slurp(std::string(std::getenv("DEPREDUCE_SOURCE_DIR")) +
                                                  "/corpus/orchestration/dynamic_trips.orch"));
  // A trip-count parameter of that program, named twice.
  CliRun t = run("fence " + prog + " --trip n=4 --trip n=8");
  EXPECT_EQ(t.code, 64) << t.out;
  EXPECT_NE(t.out.find("n=4 and n=8"), std::string::npos) << t.out;
}

TEST_F(CliOptionCells, QuietLeavesStderrEmptyOnSelfLoops) {
  const std::string g = write("loops.dot", "digraph { a -> a; a -> b; b -> c; a -> c; c -> c }");
  const std::string err = path("err.txt");
  const std::string cyc = write("cyc.dot", "digraph { a -> b; b -> a; b -> b; a -> c }");
  const std::string prog = write("p.orch", slurp(std::string(std::getenv("DEPREDUCE_SOURCE_DIR")) +
                                                 "/corpus/orchestration/phase_chain.orch"));
  for (const std::string& args :
       {"reduce " + g + " -q -o " + path("r.dot"), "convert " + g + " -q --to edges -o " + path("r.tsv"),
        "equiv " + g + " " + g + " -q", "explain " + g + " a c -q", "verify " + g + " -q",
        "build " + g + " -q -o " + path("b.dot"), "expand " + g + " -q -o " + path("e.dot"),
        "window-report " + g + " -q --time-budget-ms 0", "reduce " + cyc + " --cycles condense -q -o " + path("c.dot"),
        "fence " + prog + " -q", std::string("generate dag --size 5 -q")}) {
    CliRun r = depreduce::testing::run_cli(args, err);
    EXPECT_NE(r.code, 64) << args << ": " << r.err;
    EXPECT_EQ(r.err, "") << args;
  }
  // Without -q the warning is there.
  CliRun loud = depreduce::testing::run_cli("reduce " + g + " -o " + path("r.dot"), err);
  EXPECT_NE(loud.err.find("self-loop"), std::string::npos) << loud.err;
}

TEST_F(CliOptionCells, ExplainEquivConvertVerifyReadCondensedInput) {
  const std::string g = write("c.dot", "digraph { a -> b; b -> a; a -> c; b -> c; x -> a; x -> b }");
  for (const std::string& command : {"explain " + g + " x b", "equiv " + g + " " + g, "convert " + g, "verify " + g}) {
    CliRun refused = run(command);
    EXPECT_EQ(refused.code, 2) << command << ": " << refused.out;
    EXPECT_NE(refused.out.find("cycle: "), std::string::npos) << refused.out;
  }
  // explain: the edge reduce --cycles condense removes, with its witness.
  CliRun e = run("explain " + g + " x b --cycles condense");
  EXPECT_EQ(e.code, 0) << e.out;
  EXPECT_NE(e.out.find("x -> b is redundant"), std::string::npos) << e.out;
  CliRun oracle = run("explain " + g + " x b --cycles condense --impl reference");
  EXPECT_EQ(oracle.code, 0) << oracle.out;
  EXPECT_EQ(oracle.out, e.out);
  CliRun kept = run("explain " + g + " a b --cycles condense");
  EXPECT_EQ(kept.code, 1) << kept.out;
  EXPECT_NE(kept.out.find("inside a cycle"), std::string::npos) << kept.out;
  // equiv: the input and its condensed reduction are equivalent; a graph
  // without the cycle is not.
  const std::string r = path("r.dot");
  ASSERT_EQ(run("reduce " + g + " --cycles condense -o " + r).code, 0);
  CliRun same = run("equiv " + g + " " + r + " --cycles condense");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_EQ(run("equiv " + g + " " + r + " --cycles condense --impl reference").code, 0);
  const std::string broken = write("broken.dot", "digraph { a -> b; a -> c; b -> c; x -> a; x -> b }");
  CliRun differ = run("equiv " + g + " " + broken + " --cycles condense");
  EXPECT_EQ(differ.code, 1) << differ.out;
  EXPECT_NE(differ.out.find("differ in their cycles"), std::string::npos) << differ.out;
  // convert: every edge kept, the cycle included.
  CliRun c = run("convert " + g + " --cycles condense --to edges");
  EXPECT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("b\ta"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("a\tb"), std::string::npos) << c.out;
  // verify: accesses checked on the condensed carrier.
  const std::string acc = write("acc.dot", "digraph { p [writes=\"m:[0,4)\"]; q [reads=\"m:[0,4)\"]; "
                                           "s [reads=\"m:[0,4)\"]; p -> q [kind=flow]; q -> s; s -> q }");
  CliRun v = run("verify " + acc + " --cycles condense --races");
  EXPECT_EQ(v.code, 0) << v.out;
}

} // namespace

namespace {

class CliOptionsMore : public depreduce::testing::TempDirTest {};

// --kinds and --cycles together: equiv of a cyclic graph and its condensed
// reduction under the same --kinds says equivalent, for each K.
TEST_F(CliOptionsMore, EquivAgreesWithReduceUnderKindsAndCondense) {
  const std::string g = write("g.dot", "digraph { a -> b [kind=flow]; b -> a [kind=anti]; x -> a [kind=anti]; "
                                       "a -> c [kind=flow]; x -> c [kind=flow]; c -> d [kind=output]; x -> d [kind=anti] }");
  for (const std::string kinds : {"all", "flow", "anti", "anti,output"}) {
    const std::string r = path("r.dot");
    CliRun red = run("reduce " + g + " --cycles condense --kinds " + kinds + " -o " + r);
    ASSERT_EQ(red.code, 0) << red.out;
    CliRun eq = run("equiv " + g + " " + r + " --cycles condense --kinds " + kinds);
    EXPECT_EQ(eq.code, 0) << kinds << ": " << eq.out;
  }
}

// The --json reports of explain, equiv and verify are JSON documents.
TEST_F(CliOptionsMore, JsonReportsParse) {
  const std::string g = write("g.dot", "digraph { a -> b; b -> c; a -> c }");
  const std::string h = write("h.dot", "digraph { a -> b; b -> c }");
  CliRun e = depreduce::testing::run_cli("explain " + g + " a c --json", path("err"));
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("\"redundant\": true"), std::string::npos) << e.out;
  CliRun q = depreduce::testing::run_cli("equiv " + g + " " + h + " --json", path("err"));
  EXPECT_EQ(q.code, 0) << q.err;
  EXPECT_NE(q.out.find("\"equivalent\": true"), std::string::npos) << q.out;
  CliRun v = depreduce::testing::run_cli("verify " + g + " --json --races", path("err"));
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_NE(v.out.find("\"labels\": null"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("\"races\": []"), std::string::npos) << v.out;
}

} // namespace
