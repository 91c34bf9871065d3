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

// ---------------------------------------------------------------------------
// Captures as the runtime writes them (SPEC §6, last paragraph).
// ---------------------------------------------------------------------------

// host_build_graph: id space in bits 63:62, parent in 51:32. 4611686018427387905
// = SUB_TASK (1 << 62), parent 0, local 1: one stream, slot = position.
const char* const kHostBuilt = R"({"runtime": "host_build_graph",
  "tasks": [{"task_id": "0"}, {"task_id": "4611686018427387905"}, {"task_id": "5764607527034699777"}],
  "edges": [{"pred": "0", "succ": "4611686018427387905", "source": "explicit"},
            {"pred": "4611686018427387905", "succ": "5764607527034699777", "source": "tensormap"},
            {"pred": "0", "succ": "5764607527034699777", "source": "explicit"}]})";

TEST(DepsJsonCapture, HostBuildGraphIdsAreOpaqueOneStream) {
  const WindowTrace t = read_deps_json(kHostBuilt, "hbg.json");
  EXPECT_EQ(t.runtime, CaptureRuntime::HostBuildGraph);
  EXPECT_EQ(t.geometry.rings, 1u);
  EXPECT_EQ(t.geometry.slots_per_ring, 3u);
  ASSERT_EQ(t.stream.size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.stream[i].id, make_task_id(0, i));
    EXPECT_EQ(t.stream[i].generation, 0u);
  }
  EXPECT_EQ(t.names[1], "4611686018427387905");
  EXPECT_EQ(t.ids[2], 5764607527034699777u);
  // 0 -> 2 is redundant (0 -> 1 -> 2): an explicit edge, wait|retain -> retain.
  const WindowRun run = run_window<64>(t.stream, t.geometry);
  EXPECT_EQ(run.counters.wait_removed, 1u);
  EXPECT_EQ(run.counters.retain_conversions, 1u);
  EXPECT_EQ(describe_task_id(CaptureRuntime::HostBuildGraph, 4611686018427387905u),
            "4611686018427387905 (SUB_TASK, parent 0, local 1)");
  EXPECT_EQ(describe_task_id(CaptureRuntime::HostBuildGraph, (std::uint64_t{1} << 62) | (std::uint64_t{7} << 32) | 3),
            std::to_string((std::uint64_t{1} << 62) | (std::uint64_t{7} << 32) | 3) + " (SUB_TASK, parent 7, local 3)");
}

// The same ids read as tensormap_and_ringbuffer are refused (the issue's "too
// many rings"), naming the runtime that keeps an id space there.
TEST(DepsJsonCapture, RingBufferIdsHaveNothingAboveBit39) {
  const InputError e =
      error_of([] { read_deps_json(kHostBuilt, "hbg.json", {16384, CaptureRuntime::TensorMapAndRingBuffer}); });
  EXPECT_EQ(e.line(), 2u);
  EXPECT_NE(e.problem().find("bits 63:40"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("--runtime host_build_graph"), std::string::npos) << e.what();
  // Ring 255 (bits 39:32 all set) is a ring, local 3 its slot.
  const WindowTrace t = read_deps_json(
      R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "1095216660483"}], "edges": []})", "r.json",
      {16});
  EXPECT_EQ(t.stream[0].id, make_task_id(255, 3));
  EXPECT_EQ(t.geometry.rings, 256u);
}

TEST(DepsJsonCapture, MissingOrUnknownRuntimeIsRefusedNamingTheOverride) {
  const InputError none = error_of([] { read_deps_json(R"({"tasks": [], "edges": []})", "none.json"); });
  EXPECT_EQ(none.line(), 1u);
  EXPECT_NE(none.problem().find("no \"runtime\""), std::string::npos) << none.what();
  EXPECT_NE(none.problem().find("--runtime"), std::string::npos) << none.what();
  const InputError unknown =
      error_of([] { read_deps_json("{\"tasks\": [],\n \"runtime\": \"cuda_graph\",\n \"edges\": []}", "u.json"); });
  EXPECT_EQ(unknown.line(), 2u);
  EXPECT_NE(unknown.problem().find("unknown runtime \"cuda_graph\""), std::string::npos) << unknown.what();
  EXPECT_NE(unknown.problem().find("--runtime"), std::string::npos) << unknown.what();
  // The override decodes a capture that has no runtime, or another one.
  EXPECT_EQ(read_deps_json(R"({"tasks": [{"task_id": 1}], "edges": []})", "o.json",
                           {16384, CaptureRuntime::HostBuildGraph})
                .runtime,
            CaptureRuntime::HostBuildGraph);
}

// The host-orchestrated writer leaves `flags` out: they follow from source.
TEST(DepsJsonCapture, FlagsFollowFromSourceWhenAbsent) {
  const WindowTrace t = read_deps_json(R"({"runtime": "host_build_graph",
    "tasks": [{"task_id": "0"}, {"task_id": "1"}, {"task_id": "2"}, {"task_id": "3"}, {"task_id": "4"}],
    "edges": [{"pred": "0", "succ": "4", "source": "creator"}, {"pred": "1", "succ": "4", "source": "tensormap"},
              {"pred": "2", "succ": "4", "source": "explicit"}, {"pred": "3", "succ": "4"},
              {"pred": "0", "succ": "1", "source": "tensormap", "flags": ["retain"]}]})");
  const auto wr = FlagSet::wait() | FlagSet::retain();
  ASSERT_EQ(t.records.size(), 5u);
  EXPECT_EQ(t.records[0].flags, wr);
  EXPECT_EQ(t.records[1].flags, FlagSet::wait());
  EXPECT_EQ(t.records[2].flags, wr);
  EXPECT_EQ(t.records[3].flags, wr); // no source: explicit
  EXPECT_FALSE(t.records[0].flags_written);
  EXPECT_EQ(t.records[4].flags, FlagSet::retain()); // written flags win over the source
  EXPECT_TRUE(t.records[4].flags_written);
  ASSERT_EQ(t.stream[4].candidates.size(), 4u);
  EXPECT_EQ(t.stream[4].candidates[1], (Candidate{make_task_id(0, 1), 0, FlagSet::wait(), DepSource::TensorMap}));
}

// Records of one pair are one dependency: the reducer ORs their flags, so a
// creator [retain] record and a tensormap [wait] record make wait|retain,
// and the redundant pair converts to RETAIN rather than disappearing.
TEST(DepsJsonCapture, RecordsOfOnePairOrTheirFlags) {
  const WindowTrace t = read_deps_json(R"({"runtime": "tensormap_and_ringbuffer",
    "tasks": [{"task_id": "0"}, {"task_id": "1"}, {"task_id": "2"}],
    "edges": [{"pred": "0", "succ": "1", "source": "tensormap", "flags": ["wait"]},
              {"pred": "1", "succ": "2", "source": "tensormap", "flags": ["wait"]},
              {"pred": "0", "succ": "2", "source": "creator", "flags": ["retain"]},
              {"pred": "0", "succ": "2", "source": "tensormap", "flags": ["wait"]}]})");
  const WindowRun run = run_window<64>(t.stream, t.geometry);
  ASSERT_EQ(run.edges[2].size(), 2u);
  EXPECT_EQ(run.edges[2][0].input_flags, FlagSet::wait() | FlagSet::retain());
  EXPECT_EQ(run.edges[2][0].flags, FlagSet::retain());
  EXPECT_EQ(run.counters.retain_conversions, 1u);
  EXPECT_EQ(run.counters.pure_wait_removals, 0u);
}

// alloc_tensors tasks are only referenced: 100 is first mentioned with
// consumer 3 but also feeds 2, so it goes just before 2; 200 and 300 both
// go before 1, in order of first mention (300 first).
TEST(DepsJsonCapture, UncapturedPredIsPlacedBeforeItsFirstConsumer) {
  const WindowTrace t = read_deps_json(R"({"runtime": "tensormap_and_ringbuffer",
    "tasks": [{"task_id": "1"}, {"task_id": "2"}, {"task_id": "3"}],
    "edges": [
      {"pred": "100", "succ": "3", "source": "creator"},
      {"pred": "300", "succ": "1", "source": "creator"},
      {"pred": "100", "succ": "2", "source": "creator"},
      {"pred": "200", "succ": "1", "source": "creator"},
      {"pred": "1", "succ": "3", "source": "tensormap"}
    ]})");
  const std::vector<std::uint64_t> order = {300, 200, 1, 100, 2, 3};
  EXPECT_EQ(t.ids, order);
  EXPECT_EQ(t.captured, (std::vector<bool>{false, false, true, false, true, true}));
  EXPECT_EQ(t.lines[0], 5u); // an uncaptured task's line: its first record's
  EXPECT_EQ(t.lines[3], 4u);
  for (std::size_t i : {0u, 1u, 3u}) EXPECT_TRUE(t.stream[i].candidates.empty()) << i; // no fanin
  EXPECT_EQ(t.stream[3].id, make_task_id(0, 100));
  EXPECT_EQ(t.records[2].producer, 3u);
  EXPECT_EQ(t.records[2].consumer, 4u);
  // A succ must be captured: it is the task that was submitted.
  EXPECT_NE(error_of([] {
              read_deps_json(R"({"runtime": "host_build_graph", "tasks": [{"task_id": "1"}],
                                 "edges": [{"pred": "1", "succ": "7"}]})");
            }).problem().find("succ 7 (GLOBAL, local 7) is not a task"),
            std::string::npos);
}

TEST(DepsJsonCapture, EmptyEdgesIsAValidCapture) {
  const WindowTrace t = read_deps_json(
      R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "0"}, {"task_id": "1"}], "tensors": [], "edges": []})");
  EXPECT_EQ(t.stream.size(), 2u);
  EXPECT_TRUE(t.records.empty());
  EXPECT_TRUE(t.warnings.empty());
  EXPECT_EQ(run_window<64>(t.stream, t.geometry).counters.wait_candidates, 0u);
}

// Slot = local id mod slots per ring, also where that is no power of two. With 6
// slots, local 7 is slot 1 of generation 1 (a mask, 7 & 5, would give slot
// 5); local 1 (slot 1, generation 0) is then stale for the task after it,
// while local 5 (slot 5) is not. With 3 slots, local 5 is slot 2 (mask: 5 & 2 = 0).
TEST(DepsJsonCapture, SlotIsLocalIdModSlotsPerRingForNonPowerOfTwoCounts) {
  const WindowTrace t = read_deps_json(R"({"runtime": "tensormap_and_ringbuffer",
    "tasks": [{"task_id": "1"}, {"task_id": "5"}, {"task_id": "7"}, {"task_id": "8"}],
    "edges": [{"pred": "1", "succ": "8", "flags": ["wait"]}, {"pred": "5", "succ": "8", "flags": ["wait"]}]})",
                                       "six.json", {6});
  EXPECT_EQ(t.stream[2].id, make_task_id(0, 1));
  EXPECT_EQ(t.stream[2].generation, 1u);
  EXPECT_EQ(t.stream[3].id, make_task_id(0, 2));
  EXPECT_EQ(t.stream[3].generation, 1u);
  const WindowRun run = run_window<64>(t.stream, t.geometry);
  ASSERT_EQ(run.edges[3].size(), 2u);
  EXPECT_EQ(run.edges[3][0].producer, make_task_id(0, 5));
  EXPECT_EQ(run.edges[3][0].status, WindowStatus::Tracked);
  EXPECT_EQ(run.edges[3][1].producer, make_task_id(0, 1));
  EXPECT_EQ(run.edges[3][1].status, WindowStatus::Stale);
  const WindowTrace three =
      read_deps_json(R"({"runtime": "tensormap_and_ringbuffer", "tasks": [{"task_id": "5"}], "edges": []})", "3.json",
                     {3});
  EXPECT_EQ(three.stream[0].id, make_task_id(0, 2));
  EXPECT_EQ(three.stream[0].generation, 1u);
}

// Item 6: nlohmann-json reads 2^64 and more as floating point; the error
// names the line and the id as written.
TEST(DepsJsonCapture, IdsOfTwoToTheSixtyFourOrMoreAreRejectedWithTheirLine) {
  for (const char* id : {"18446744073709551616", "\"18446744073709551616\"", "99999999999999999999999"}) {
    const std::string text = std::string("{\"runtime\": \"tensormap_and_ringbuffer\",\n \"tasks\": [\n  {\"task_id\": 0},\n  "
                                         "{\"task_id\": ") + id + "}\n ],\n \"edges\": []}";
    const InputError e = error_of([&] { read_deps_json(text, "big.json"); });
    EXPECT_EQ(e.line(), 4u) << id;
    // As written: a string keeps its quotes.
    EXPECT_NE(e.problem().find(std::string("task_id ") + id + " does not fit in 64 bits"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.problem().find("e+"), std::string::npos) << e.what();
  }
  const InputError pred = error_of([] {
    read_deps_json("{\"runtime\": \"host_build_graph\", \"tasks\": [{\"task_id\": 0}],\n\"edges\": [\n"
                   "{\"pred\": 18446744073709551617, \"succ\": 0}]}", "p.json");
  });
  EXPECT_EQ(pred.line(), 3u);
  EXPECT_NE(pred.problem().find("pred 18446744073709551617 does not fit in 64 bits"), std::string::npos) << pred.what();
  // 2^64 - 1 itself fits.
  EXPECT_EQ(read_deps_json(R"({"runtime": "host_build_graph", "tasks": [{"task_id": 18446744073709551615}], "edges": []})")
                .ids[0],
            18446744073709551615u);
}

// Write-back: the capture's text with WAIT cleared on the removed pairs'
// records (wait|retain -> ["retain"], wait -> []), nothing else touched; a
// record without flags gets them, as its source would give WAIT back.
const char* const kDiamond = R"({"runtime": "host_build_graph", "note": "kept",
  "tasks": [{"task_id": "0", "scope": "auto"}, {"task_id": "1"}, {"task_id": "2"}],
  "edges": [
    {"pred": "0", "succ": "1", "source": "tensormap"},
    {"pred": "1", "succ": "2", "source": "tensormap", "tensor_id": "77"},
    {"pred": "0", "succ": "2", "arg": 1, "source": "creator", "flags": ["wait","retain"], "tensor_id": "9"},
    {"pred": "0", "succ": "2", "arg": 2, "source": "tensormap", "tensor_id": "9"},
    {"pred": "0", "succ": "2", "arg": -1, "source": "explicit", "flags": ["retain"]}
  ]})";

TEST(DepsJsonCapture, WriteReducedClearsWaitExactlyWhereRemoved) {
  const WindowTrace t = read_deps_json(kDiamond, "d.json");
  const std::string out = write_reduced_deps_json(kDiamond, t, {{0, 2}});
  const std::string expected = R"({"runtime": "host_build_graph", "note": "kept",
  "tasks": [{"task_id": "0", "scope": "auto"}, {"task_id": "1"}, {"task_id": "2"}],
  "edges": [
    {"pred": "0", "succ": "1", "source": "tensormap"},
    {"pred": "1", "succ": "2", "source": "tensormap", "tensor_id": "77"},
    {"pred": "0", "succ": "2", "arg": 1, "source": "creator", "flags": ["retain"], "tensor_id": "9"},
    {"pred": "0", "succ": "2", "arg": 2, "source": "tensormap", "tensor_id": "9", "flags": []},
    {"pred": "0", "succ": "2", "arg": -1, "source": "explicit", "flags": ["retain"]}
  ]})";
  EXPECT_EQ(out, expected);
  // Read back: the same tasks and records, WAIT gone from the pair only.
  const WindowTrace back = read_deps_json(out, "back.json");
  EXPECT_EQ(back.ids, t.ids);
  ASSERT_EQ(back.records.size(), t.records.size());
  for (std::size_t k = 0; k < t.records.size(); ++k) {
    EXPECT_EQ(back.records[k].producer, t.records[k].producer);
    EXPECT_EQ(back.records[k].consumer, t.records[k].consumer);
    const bool removed = t.records[k].producer == 0 && t.records[k].consumer == 2;
    EXPECT_EQ(back.records[k].flags, removed ? t.records[k].flags.without(Flag::Wait) : t.records[k].flags) << k;
  }
  const WindowRun run = run_window<64>(back.stream, back.geometry);
  EXPECT_EQ(run.counters.wait_removed, 0u);
  // Nothing removed: the text comes back byte for byte.
  EXPECT_EQ(write_reduced_deps_json(kDiamond, t, {}), kDiamond);
}

TEST(DepsJsonCapture, WriteReducedRefusesPairsWithoutWaitAndForeignText) {
  const WindowTrace t = read_deps_json(kDiamond, "d.json");
  EXPECT_NE(error_of([&] { (void)write_reduced_deps_json(kDiamond, t, {{1, 0}}); }).problem().find("carries WAIT"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)write_reduced_deps_json(kHostBuilt, t, {}); }).problem().find("edge records"),
            std::string::npos);
}

// nlohmann keeps the last of repeated keys, escaped spellings included: the
// writer clears the flags that were read.
TEST(DepsJsonCapture, WriteReducedEditsTheFlagsMemberThatWasRead) {
  const std::string text = R"({"runtime": "host_build_graph", "tasks": [{"task_id": "0"}, {"task_id": "1"}, {"task_id": "2"}],
  "edges": [{"pred": "0", "succ": "1"}, {"pred": "1", "succ": "2"},
            {"pred": "0", "succ": "2", "flags": ["retain"], "fl\u0061gs": ["wait"]}]})";
  const WindowTrace t = read_deps_json(text, "esc.json");
  EXPECT_EQ(t.records[2].flags, FlagSet::wait());
  const std::string out = write_reduced_deps_json(text, t, {{0, 2}});
  EXPECT_NE(out.find(R"("flags": ["retain"], "fl\u0061gs": [])"), std::string::npos) << out;
  EXPECT_TRUE(read_deps_json(out, "out.json").records[2].flags.empty());
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

// A number beyond a double is bad input with its line, not an escaped
// nlohmann exception (fuzz_deps_json_diff found `{"a":\n1e999}`).
TEST(DepsJson, NumberBeyondADoubleIsBadInputWithItsLine) {
  try {
    (void)depreduce::formats::read_deps_json("{\"a\":\n1e999}", "big.json");
    FAIL() << "no error";
  } catch (const depreduce::InputError& e) {
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_NE(std::string(e.what()).find("1e999"), std::string::npos) << e.what();
  }
}
