//===- tests/orchestration_text_test.cpp - The orchestration text reader --===//
///
/// formats/orchestration_text: file:line:col errors, deep nesting, unreadable
/// files, and round trips (print(parse(text)) == text; corpus programs keep
/// their happens-before). The phase-fence pass itself is phase_fence_test.cpp.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "depreduce/error.hpp"
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/orchestration_ir.hpp"
#include "depreduce/reference/phase_fence.hpp"

namespace {

using depreduce::PhaseFenceSummary;
using depreduce::formats::OrchestrationSyntaxError;
using depreduce::formats::parse_orchestration;
using depreduce::reference::TripCounts;
namespace orch = depreduce::orch;

//===----------------------------------------------------------------------===//
// Parser: file:line:col errors
//===----------------------------------------------------------------------===//

struct ParseErrorCase {
  const char* text;
  std::uint32_t line, col;
  const char* message;
};

TEST(OrchestrationText, ErrorsNameFileLineAndColumn) {
  const ParseErrorCase cases[] = {
      {"orchestration func main() {\n  x = array(4\n}\n", 3, 1, "expected ')', found '}'"},
      {"orchestration func main() {\n  manual {\n    c = submit(k, [], deps=[nope])\n  }\n}\n", 3, 5,
       "use of undefined name 'nope'"},
      {"orchestration func main() {\n  a = array(1)\n  a = array(2)\n}\n", 3, 3, "'a' is defined twice"},
      {"orchestration func main() {\n  a = array(1) $\n}\n", 2, 16, "unexpected character '$'"},
      {"orchestration func main() {\n  manual {\n", 3, 1, "expected '}' to close the block opened at 2:10"},
      {"kernel func f(n) {\n  for i in seq(n) {\n    c = submit(k, [], deps=[i])\n  }\n}\n", 3, 5,
       "dep 'i' must be a TaskId or an Array[TASK_ID], not Int"},
      {"orchestration func main() {\n  a = array(1)\n  r = for i in seq(2) iter(x = a) {\n  }\n}\n", 3, 3,
       "loop has 1 iteration argument(s), 0 yielded value(s) and 1 result(s); they must match"},
      {"orchestration func main() {\n  t = submit(k, []) {manual_dep_edges = [t]}\n}\n", 2, 3,
       "manual_dep_edges is only allowed on system.task_dummy (use deps=[...])"},
      {"orchestration func main() {\n  a = array(99999999999999999999)\n}\n", 2, 13,
       "number 99999999999999999999 is out of range"},
      {"orchestration func main() {\n  for = array(1)\n}\n", 2, 7, "expected a loop variable, found '='"},
      {"func main() {}\n", 1, 1, "expected 'orchestration' or 'kernel' to start a function, found 'func'"},
      {"orchestration func main() {\n  yield a\n}\n", 2, 3, "'yield' is only allowed at the end of a loop or if body"},
      {"orchestration func main() {}\norchestration func main() {}\n", 2, 1, "function 'main' defined twice"},
      {"orchestration func main() {\n  a = array(-1)\n}\n", 2, 3, "array length must be >= 0"},
      {"orchestration func main() {\n  t = submit(k, [])\n  r = if 1 < 2 {\n    yield t\n  }\n}\n", 3, 3,
       "if has 1 result(s); each branch must exist and yield that many values"},
  };
  for (const ParseErrorCase& c : cases) {
    try {
      parse_orchestration(c.text, "bad.orch");
      ADD_FAILURE() << "no error for:\n" << c.text;
    } catch (const OrchestrationSyntaxError& e) {
      EXPECT_EQ(e.file(), "bad.orch");
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.col) << e.what();
      EXPECT_EQ(e.problem(), c.message);
      EXPECT_EQ(std::string(e.what()),
                "bad.orch:" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": " + c.message);
    }
  }
}

TEST(OrchestrationText, DeepNestingIsAnErrorNotAStackOverflow) {
  std::string text = "orchestration func main() {\n";
  for (int i = 0; i < 1000; ++i) text += "manual {\n";
  try {
    parse_orchestration(text, "deep.orch");
    FAIL() << "expected an error";
  } catch (const OrchestrationSyntaxError& e) {
    // Block 129 (the function body is block 1) opens on line 129, column 8.
    EXPECT_EQ(e.line(), 129u);
    EXPECT_EQ(e.column(), 8u);
    EXPECT_EQ(e.problem(), "nesting deeper than 128 levels");
  }
}

TEST(OrchestrationText, UnreadableFileIsAnInputError) {
  EXPECT_THROW(depreduce::formats::read_orchestration("/nonexistent/x.orch"), depreduce::InputError);
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

/// Every construct, already in canonical form: print(parse(text)) == text.
const char* kCanonical = R"(orchestration func main(n, m) {
  manual {
    tids_0 = array(4)
    tids = for i in parallel(4) iter(acc = tids_0) {
      t = submit(produce, [i, n, -3])
      acc1 = update(acc, i, t)
      yield acc1
    }
    first = submit(seed, [])
    last, fin = for s in seq(n) iter(prev = first, arr = tids) {
      x = submit(step, [s], deps=[prev]) {priority = 2, tag = true}
      slot = arr[s]
      y = submit(step, [s], deps=[slot, arr])
      arr1 = update(arr, 0, x)
      yield x, arr1
    }
    pick = if m >= 2 {
      yield last
    } else {
      yield first
    }
    if n != 0 {
      submit(note, [n], deps=[pick])
    }
    fence = system.task_dummy() {dummy_task = true, manual_dep_edges = [fin, pick]}
    auto {
      z = submit(after, [], deps=[fence])
    }
    view = tids
    out = for p in seq(2) iter(cur = array(4)) {
      v = submit(fill, [p], deps=[view])
      cur1 = update(cur, p, v)
      yield cur1
    }
  }
}

kernel func tile() {
}
)";

TEST(OrchestrationText, CanonicalTextOfEveryConstructPrintsBackUnchanged) {
  orch::Program p = parse_orchestration(kCanonical);
  EXPECT_EQ(orch::print(p), kCanonical);
  ASSERT_EQ(p.functions.size(), 2u);
  EXPECT_EQ(p.functions[1].kind, orch::FunctionKind::Kernel);
  const auto& scope = std::get<orch::Scope>(p.functions[0].body[0].node);
  const auto& loop = std::get<orch::Loop>(scope.body[3].node);
  EXPECT_EQ(loop.results, (std::vector<std::string>{"last", "fin"}));
  EXPECT_EQ(std::get<std::string>(loop.trip), "n");
  EXPECT_EQ(loop.iter_args[1].init, "tids");
  EXPECT_EQ(std::get<orch::Copy>(scope.body[8].node), (orch::Copy{"view", "tids"}));
  const auto& fresh = std::get<orch::Loop>(scope.body[9].node);
  EXPECT_EQ(fresh.iter_args[0].init_length, orch::IntAtom(std::int64_t{4}));
}

TEST(OrchestrationText, CommentsAndLayoutDoNotMatter) {
  orch::Program a = parse_orchestration(kCanonical);
  std::string messy = "# a comment\n";
  for (char c : std::string(kCanonical)) {
    messy += c;
    if (c == '\n') messy += "   # trailing\n\t";
  }
  EXPECT_EQ(parse_orchestration(messy), a);
}

TEST(OrchestrationText, CorpusProgramsRoundTripAndKeepHappensBefore) {
  namespace fs = std::filesystem;
  const char* root = std::getenv("DEPREDUCE_SOURCE_DIR");
  fs::path dir = fs::path(root ? root : ".") / "corpus" / "orchestration";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t files = 0, barriers = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".orch") continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    // Trip counts for the oracle: lines "# trip NAME=VALUE".
    TripCounts trips;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("# trip ", 0) == 0) {
        auto eq = line.find('=');
        trips[line.substr(7, eq - 7)] = std::stoll(line.substr(eq + 1));
      }
    orch::Program p = parse_orchestration(text, entry.path().string());
    std::string printed = orch::print(p);
    EXPECT_EQ(parse_orchestration(printed), p) << entry.path();
    EXPECT_EQ(orch::print(parse_orchestration(printed)), printed) << entry.path();
    PhaseFenceSummary s;
    orch::Program q = depreduce::expand_manual_phase_fence(p, &s);
    barriers += s.barriers.size();
    auto cmp = depreduce::reference::compare_fence(p, q, trips);
    EXPECT_TRUE(cmp.equivalent) << entry.path() << ": " << cmp.mismatch;
  }
  EXPECT_GE(files, 8u);
  EXPECT_GE(barriers, 8u);
}

} // namespace
