//===- deps_json_test.cpp - deps.json and DAG files as window traces ------===//
///
/// \file
/// formats/deps_json.hpp: the runtime's deps.json dump and any DAG file
/// turned into the task stream the bounded-window reducer replays. Expected
/// values are read off the input text by hand.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "depreduce/error.hpp"
#include "depreduce/formats/deps_json.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/window_reducer.hpp"

namespace {

using namespace depreduce;
using namespace depreduce::formats;

/// The InputError \p f throws (fails the test if none).
template <typename F>
InputError error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected InputError";
  return InputError("", 0, "");
}

// Ring 1 ids are 1 << 32 = 4294967296 and up; written as strings, plain
// numbers and hex. Record order = submission order.
const char* const kTwoRings = R"({
  "runtime": "tensormap_and_ringbuffer", "tasks": [
    {"task_id": 0, "scope": 0, "kernel": "a"},
    {"task_id": "4294967296", "scope": 1},
    {"task_id": "0x100000001"},
    {"task_id": 1}
  ],
  "edges": [
    {"pred": 0, "succ": "4294967297", "source": "creator", "flags": ["wait", "retain"]},
    {"pred": "4294967296", "succ": "4294967297", "source": "tensormap"},
    {"pred": 0, "succ": 1, "flags": "retain"},
    {"pred": "4294967297", "succ": 1, "source": "EXPLICIT", "flags": ["wait"]}
  ]
})";

TEST(DepsJson, ReadsTasksInRecordOrderAndEdgesAsCandidates) {
  const WindowTrace t = read_deps_json(kTwoRings, "two.json");
  EXPECT_EQ(t.geometry.rings, 2u);
  EXPECT_EQ(t.geometry.slots_per_ring, 16384u);
  ASSERT_EQ(t.stream.size(), 4u);
  EXPECT_EQ(t.stream[0].id, make_task_id(0, 0));
  EXPECT_EQ(t.stream[1].id, make_task_id(1, 0));
  EXPECT_EQ(t.stream[2].id, make_task_id(1, 1));
  EXPECT_EQ(t.stream[3].id, make_task_id(0, 1));
  EXPECT_EQ(t.names[2], "4294967297");
  EXPECT_EQ(t.lines[0], 3u);
  EXPECT_EQ(t.lines[3], 6u);
  ASSERT_EQ(t.stream[2].candidates.size(), 2u);
  EXPECT_EQ(t.stream[2].candidates[0],
            (Candidate{make_task_id(0, 0), 0, FlagSet::wait() | FlagSet::retain(), DepSource::Creator}));
  EXPECT_EQ(t.stream[2].candidates[1], (Candidate{make_task_id(1, 0), 0, FlagSet::wait(), DepSource::TensorMap}));
  ASSERT_EQ(t.stream[3].candidates.size(), 2u);
  EXPECT_EQ(t.stream[3].candidates[0], (Candidate{make_task_id(0, 0), 0, FlagSet::retain(), DepSource::Explicit}));
  EXPECT_EQ(t.stream[3].candidates[1], (Candidate{make_task_id(1, 1), 0, FlagSet::wait(), DepSource::Explicit}));
  EXPECT_TRUE(t.warnings.empty());
}

// With 4 slots per ring, local id 5 is slot 1, generation 1; local 1 is slot
// 1, generation 0 - so a consumer of local 1 submitted after local 5 names a
// stale producer.
TEST(DepsJson, LocalIdsMapOntoSlotsAndGenerations) {
  const char* text = R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": 1}, {"task_id": 2}, {"task_id": 5}, {"task_id": 6}],
                         "edges": [{"pred": 1, "succ": 6}, {"pred": 5, "succ": 6}]})";
  const WindowTrace t = read_deps_json(text, "slots.json", {4});
  ASSERT_EQ(t.stream.size(), 4u);
  EXPECT_EQ(t.stream[0].id, make_task_id(0, 1));
  EXPECT_EQ(t.stream[0].generation, 0u);
  EXPECT_EQ(t.stream[2].id, make_task_id(0, 1));
  EXPECT_EQ(t.stream[2].generation, 1u);
  EXPECT_EQ(t.stream[3].id, make_task_id(0, 2));
  EXPECT_EQ(t.stream[3].generation, 1u);
  WindowOptions o = t.geometry;
  const WindowRun run = run_window<64>(t.stream, o);
  ASSERT_EQ(run.edges[3].size(), 2u);
  EXPECT_EQ(run.edges[3][0].status, WindowStatus::Tracked); // local 5, d = 1
  EXPECT_EQ(run.edges[3][1].status, WindowStatus::Stale);   // local 1: slot 1 now holds local 5
}

// The issue's t0..t4 trace written as the runtime would dump it: t0 on ring 0,
// t1..t4 on ring 1. Global removes t0 -> t4; same-ring keeps it.
TEST(DepsJson, CrossRingTraceEndToEnd) {
  const char* text = R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "0"}, {"task_id": "4294967296"}, {"task_id": "4294967297"},
                                    {"task_id": "4294967298"}, {"task_id": "4294967299"}],
    "edges": [{"pred": "0", "succ": "4294967296"}, {"pred": "0", "succ": "4294967297"},
              {"pred": "4294967296", "succ": "4294967298"}, {"pred": "4294967297", "succ": "4294967298"},
              {"pred": "0", "succ": "4294967299"}, {"pred": "4294967298", "succ": "4294967299"}]})";
  const WindowTrace t = read_deps_json(text);
  WindowOptions o = t.geometry;
  const WindowRun global = run_window<64>(t.stream, o);
  EXPECT_EQ(global.counters.wait_removed, 1u);
  EXPECT_TRUE(global.edges[4][0].wait_removed());
  EXPECT_EQ(global.edges[4][0].producer, make_task_id(0, 0));
  o.mode = WindowMode::SameRing;
  const WindowRun same = run_window<64>(t.stream, o);
  EXPECT_EQ(same.counters.wait_removed, 0u);
  EXPECT_EQ(same.counters.cross_ring, 3u);
}

TEST(DepsJson, SelfLoopIsDroppedWithAWarning) {
  const WindowTrace t =
      read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": 0}, {"task_id": 1}], "edges": [{"pred": 1, "succ": 1}]})");
  EXPECT_TRUE(t.stream[1].candidates.empty());
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("self-loop"), std::string::npos);
}

TEST(DepsJson, MalformedJsonNamesTheLine) {
  const InputError e = error_of([] { read_deps_json("{\n  \"tasks\": [\n    {\"task_id\": 0},,\n  ]\n}", "bad.json"); });
  EXPECT_EQ(e.file(), "bad.json");
  EXPECT_EQ(e.line(), 3u);
  EXPECT_NE(e.problem().find("malformed JSON"), std::string::npos) << e.what();
  EXPECT_EQ(error_of([] { read_deps_json("{\"runtime\": \"tensormap_and_ringbuffer\", \"tasks\": [", "cut.json"); }).line(), 1u); // truncated
}

TEST(DepsJson, DuplicateTaskIdNamesBothLines) {
  const InputError e =
      error_of([] { read_deps_json("{\"runtime\": \"tensormap_and_ringbuffer\", \"tasks\": [\n{\"task_id\": 7},\n{\"task_id\": \"7\"}\n], \"edges\": []}", "d.json"); });
  EXPECT_EQ(e.line(), 3u);
  EXPECT_NE(e.problem().find("duplicate task_id 7"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("line 2"), std::string::npos) << e.what();
}

TEST(DepsJson, EdgeErrorsNameTheEdgeLine) {
  auto doc = [](const std::string& edge) {
    return "{\"runtime\": \"tensormap_and_ringbuffer\", \"tasks\": [{\"task_id\": 0}, {\"task_id\": 1}],\n \"edges\": [\n  {\"pred\": 0, \"succ\": 1},\n  " + edge +
           "\n]}";
  };
  struct Case {
    std::string edge, needle;
  } cases[] = {
      {R"({"pred": 0, "succ": 9})", "is not a task in \"tasks\""},
      {R"({"pred": 1, "succ": 0})", "against submission order"},
      {R"({"pred": 0, "succ": 1, "source": "oracle"})", "unknown source"},
      {R"({"pred": 0, "succ": 1, "flags": ["wait", "hold"]})", "unknown flag"},
      {R"({"pred": -1, "succ": 1})", "not an unsigned 64-bit integer"},
      {R"({"pred": 0.5, "succ": 1})", "not an unsigned 64-bit integer"},
      {R"({"pred": "12x", "succ": 1})", "not an unsigned 64-bit integer"},
      {R"({"succ": 1})", "no \"pred\""},
      {R"({"pred": 0, "succ": 1, "flags": 3})", "\"flags\" must be a list"},
  };
  for (const Case& c : cases) {
    const InputError e = error_of([&] { read_deps_json(doc(c.edge), "e.json"); });
    EXPECT_EQ(e.line(), 4u) << c.edge;
    EXPECT_NE(e.problem().find(c.needle), std::string::npos) << c.edge << ": " << e.what();
  }
}

TEST(DepsJson, MissingArraysAndBadTasksAreErrors) {
  EXPECT_THROW(read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": []})"), InputError);
  EXPECT_THROW(read_deps_json(R"([1, 2])"), InputError);
  EXPECT_THROW(read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"id": 0}], "edges": []})"), InputError);
  EXPECT_THROW(read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [], "edges": []})", "x", {0}), InputError);
  // Ring 2^31 with 16384 slots per ring would need 2^45 slots.
  EXPECT_THROW(read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "9223372036854775808"}], "edges": []})"), InputError);
}

TEST(DepsJson, LooksLikeDepsJsonOnlyForTasksOrEdgesArraysWithoutWorkflow) {
  EXPECT_TRUE(looks_like_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [], "edges": []})"));
  EXPECT_FALSE(looks_like_deps_json(R"({"workflow": {"tasks": []}})"));
  EXPECT_FALSE(looks_like_deps_json(R"({"workflow": {}, "tasks": [], "edges": []})"));
  // Incomplete dumps are still deps.json, so the reader names what is missing.
  EXPECT_TRUE(looks_like_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": 0}]})"));
  EXPECT_TRUE(looks_like_deps_json(R"({"edges": []})"));
  try {
    read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": 0}]})", "noedges.json");
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "noedges.json:1: deps.json has no \"edges\" array");
  }
  // Neither array: the WfCommons reader answers, and names both formats.
  try {
    formats::read_wfjson(R"({"version": 1})", "neither.json");
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing key 'workflow'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("deps.json"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(looks_like_deps_json("digraph { a -> b }"));
  EXPECT_FALSE(looks_like_deps_json("{\"runtime\": \"tensormap_and_ringbuffer\", \"tasks\": ["));
}

// A DAG as a trace: one ring, node i in slot i, candidates = incoming edges.
// 0 -> 1 -> 2 plus 0 -> 2: the shortcut goes.
TEST(WindowTrace, GraphBecomesOneRingInProgramOrder) {
  const Graph g = graph_from_edges(3, {{0, 1}, {1, 2}, {0, 2}});
  const WindowTrace t = trace_from_graph(g);
  EXPECT_EQ(t.geometry.rings, 1u);
  EXPECT_EQ(t.geometry.slots_per_ring, 3u);
  ASSERT_EQ(t.stream.size(), 3u);
  EXPECT_EQ(t.stream[2].id, make_task_id(0, 2));
  ASSERT_EQ(t.stream[2].candidates.size(), 2u);
  EXPECT_EQ(t.names[1], "1");
  const WindowRun run = run_window<64>(t.stream, t.geometry);
  EXPECT_EQ(run.counters.wait_removed, 1u);
  EXPECT_EQ(run.edges[2][0].producer, make_task_id(0, 0));
  EXPECT_TRUE(run.edges[2][0].wait_removed());
}

// read_window_trace picks the reader from the content: a DOT file (program
// order = topological order: b is written first but depends on a).
TEST(WindowTrace, ReadsDotAndDepsJsonFiles) {
  const auto dir = std::filesystem::temp_directory_path() / ("depreduce_window_trace_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "g.dot") << "digraph { b -> c; a -> b; a -> c; }\n";
    std::ofstream(dir / "deps.json") << kTwoRings;
  }
  const WindowTrace dot = read_window_trace((dir / "g.dot").string());
  ASSERT_EQ(dot.stream.size(), 3u);
  EXPECT_EQ(dot.names[0], "a");
  EXPECT_EQ(dot.names[2], "c");
  EXPECT_EQ(run_window<128>(dot.stream, dot.geometry).counters.wait_removed, 1u);
  const WindowTrace deps = read_window_trace((dir / "deps.json").string());
  EXPECT_EQ(deps.stream.size(), 4u);
  EXPECT_EQ(deps.file, (dir / "deps.json").string());
  EXPECT_THROW(read_window_trace((dir / "missing.json").string()), InputError);
  std::filesystem::remove_all(dir);
}

} // namespace
