//===- depreduce/testing/generators.hpp - Inputs for tests and benches -*- C++ -*-===//
///
/// \file
/// Seeded generators of graphs shared by tests/, props/, fuzz/ and bench/, and
/// `Sketch`, a terse way to write small graphs by hand in tests.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_GENERATORS_HPP
#define DEPREDUCE_TESTING_GENERATORS_HPP

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/workloads/workloads.hpp"

namespace depreduce::testing {

/// A random DAG without engines (depreduce/workloads/workloads.hpp, where
/// `depreduce generate dag` finds it too).
using workloads::random_dag;

/// Parameters of random_engine_graph().
struct EngineGraphParams {
  std::uint32_t nodes = 50;
  std::uint32_t engines = 4;      ///< 1..64; some nodes get no engine if allow_no_engine.
  std::uint32_t out_degree = 2;   ///< Average explicit out-degree.
  std::uint32_t span = 10;        ///< Edge targets within (i, i + span].
  bool allow_no_engine = true;
  bool async = true;              ///< Random async windows 1..4 and a few `inf`.
  bool barriers = true;
  bool ordered = true;            ///< Some ORDERED-only (S) edges.
  bool retain = true;             ///< Some RETAIN-only and WAIT|RETAIN edges.
};

/// A random walrus-style graph: engines, async windows, barriers, edge kinds
/// and flags drawn from \p seed. Program order = node order.
Graph random_engine_graph(const EngineGraphParams& params, std::uint64_t seed);

/// The parallel parts one pair of nodes can be written with (SPEC §2), as
/// listed by docs/model.md's table: each entry is up to three edges between
/// the same two nodes. `kinds` is "" (unlabelled), "flow"..., `flags` "wait",
/// "retain" or "wait|retain".
struct PartSpec {
  KindSet kinds;
  FlagSet flags = FlagSet::wait();
};
/// Every combination of {unlabelled, data kinds (FLOW), ORDERED only, FLOW|ORDERED}
/// x {WAIT, RETAIN, WAIT|RETAIN} for one part (12), and of two and three parts
/// (unordered, with repetition: 78 and 364). 454 in all, in a fixed order.
const std::vector<std::vector<PartSpec>>& part_combinations();

/// A random walrus-style graph *as a reader would produce it* (SPEC §1: the
/// reference works from the input as read): nodes listed in a random input
/// order (so program order differs from it), pairs written as 1 to 3
/// parallel parts of every kind and flag combination, a few self-loops, and
/// edges listed in random order; a third of the nodes read or write a few
/// bytes of `sbuf`. Acyclic. Cost: O(n * out_degree).
InputGraph random_input_graph(const EngineGraphParams& params, std::uint64_t seed);

/// What inject_fault() makes wrong in an input, one per rule of
/// make_program_order()'s \throws (and reference::program_order()'s).
enum class InputFault : std::uint8_t {
  DuplicateName,    ///< node b % n takes the name of node a % n
  EngineOutOfRange, ///< node a % n gets engine num_engines + b % 3
  TooManyEngines,   ///< num_engines = kMaxEngines + 1 + b % 3
  UnknownNode,      ///< an edge from node a % n to n + b % 2 (or back, b odd)
  ReversedEdge,     ///< edge a % m written again backwards: a cycle of two
  AnyEdge,          ///< an edge a % n -> b % n, which may close a cycle or not
};
inline constexpr std::uint8_t kInputFaults = 6;

/// Makes \p input bad in the way \p fault says, with \p a and \p b picking
/// where; first gives every node a line of its own (1,000,000 + its index)
/// if none has one, so that a message's line tells which node it names. The
/// added edge of UnknownNode, ReversedEdge and AnyEdge goes at a position
/// picked by a + b among the edges and has the line 2,000,000.
/// \returns true if every correct reader of the rules must now reject the
///   input (false for AnyEdge, for DuplicateName when a % n == b % n, and
///   for ReversedEdge without edges). Cost: O(n + m).
bool inject_fault(InputGraph& input, InputFault fault, std::uint32_t a, std::uint32_t b);

/// A small graph written by hand:
///   Sketch s; s.node("a", 0).node("b", 0, /*async=*/2).edge("a", "b", "flow");
///   Graph g = s.graph(/*engines=*/1);
class Sketch {
public:
  Sketch& node(const std::string& name, Engine engine = kNoEngine, std::uint32_t async = 0,
               bool barrier = false);
  /// kinds/flags as text: "flow|anti", "ordered", "" (unlabelled); "wait|retain".
  Sketch& edge(const std::string& src, const std::string& dst, const std::string& kinds = "",
               const std::string& flags = "wait");
  /// Nodes not declared are created on first use (no engine).
  Graph graph(std::uint32_t engines = 0) const;
  /// Id of \p name in the graph() result (program order).
  NodeId id(const std::string& name) const;

private:
  InputGraph input_;
  std::uint32_t index(const std::string& name);
};

} // namespace depreduce::testing


namespace depreduce::testing {

/// Decodes fuzzer bytes into a DAG without engines: byte 0 picks n =
/// byte % max_nodes + 1 (1..64; \p max_nodes is clamped to 1..64), then each
/// byte pair (a, b) adds edge min -> max (mod n; equal ends skipped).
/// Never fails; at most 4096 bytes are read. A fuzz target passes its own
/// cap (docs/fuzzing.md, "Throughput"); inputs whose byte 0 is below the cap
/// decode the same under every cap.
Graph dag_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes = 64);

/// Decodes fuzzer bytes into an engine graph: n (1..48), engines (1..8), two
/// bytes per node (engine or none; async window 0..4/inf and barrier), then
/// three bytes per edge (ends, kinds and flags). Never fails; at most 4096 bytes.
/// n = byte 0 % max_nodes + 1 (\p max_nodes clamped to 1..48), as for dag_from_bytes().
Graph engine_graph_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes = 48);

/// Decodes fuzzer bytes into an engine graph *as read*: like
/// engine_graph_from_bytes(), but the result is the raw InputGraph: nodes in
/// an input order taken from the bytes (a rotation of the intended program
/// order), repeated pairs kept as parallel parts, self-loops kept, unlabelled
/// and RETAIN-only parts included. Acyclic. Never fails; at most 4096 bytes.
/// n = byte 0 % max_nodes + 1 (\p max_nodes clamped to 1..48).
InputGraph input_graph_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes = 48);

} // namespace depreduce::testing

namespace depreduce {
/// RapidCheck and GoogleTest printers: nodes (engine, async, barrier) and edges.
void showValue(const Graph& g, std::ostream& os);
void PrintTo(const Graph& g, std::ostream* os);
/// The same for an InputGraph: nodes in input order, every edge as written.
void showValue(const InputGraph& g, std::ostream& os);
void PrintTo(const InputGraph& g, std::ostream* os);
} // namespace depreduce

#endif
