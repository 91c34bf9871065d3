//===- depreduce/testing/access_programs.hpp - Inputs for SPEC §5/§8 -*- C++ -*-===//
///
/// \file
/// Generators for the builder, label verification, race check and
/// scheduling-unit expansion (tests/, props/, fuzz/, bench/), and the adapter
/// that runs each of those contracts over both twins.
///
/// Access programs: nodes with random `reads`/`writes` byte ranges on a few
/// spaces. Range ends sit mostly on a grid of 8 bytes with some off by one,
/// so ranges coincide, nest, touch (`[0,8)` / `[8,16)`) and overlap partially
/// (`[0,8)` / `[7,16)`); some are empty.
///
/// Unit graphs: nodes in nested DOT clusters (scheduling units), with some
/// non-cluster subgraphs, unit names with '/', and node names that collide
/// with generated `unit/leaf` names.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_ACCESS_PROGRAMS_HPP
#define DEPREDUCE_TESTING_ACCESS_PROGRAMS_HPP

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "depreduce/dependence_builder.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/race_check.hpp"

namespace depreduce::testing {

/// Parameters of random_access_program().
struct AccessProgramParams {
  std::uint32_t nodes = 20;       ///< Node count (names "n0".."n<k>").
  std::uint32_t spaces = 2;       ///< 1..4 spaces: sbuf, psum, dram, hbm.
  std::uint32_t max_accesses = 2; ///< Each node reads 0..max and writes 0..max ranges.
  std::uint32_t extent_tiles = 8; ///< Range ends within [0, 8 * extent_tiles].
  std::uint32_t engines = 0;      ///< 0 = no engines; else 1..64 engines, some nodes none.
  bool async = true;              ///< With engines: random async windows 1..3, some `inf`.
  bool barriers = true;           ///< With engines: a few barriers.
  std::uint32_t edges = 0;        ///< Random forward edges with random kinds and flags.
};

/// A random access program (see the file comment); program order = node
/// order. Cost: O(nodes * max_accesses + edges).
Graph random_access_program(const AccessProgramParams& params, std::uint64_t seed);

/// Decodes fuzzer bytes into an access program. Layout: byte 0 -> n =
/// byte % max_nodes + 1 (1..32; \p max_nodes clamped to 1..32, a per-target cap);
/// byte 1 -> spaces (b % 3 + 1) and engines ((b >> 2) % 5, 0 = none); per
/// node a count byte (reads = b % 3, writes = (b >> 2) % 3), a node byte
/// (engine, async window, barrier), then two bytes per range (space, start on
/// the grid or one past it; length in 4-byte steps, or 1 byte, or a range at
/// the top of the 64-bit space); then three bytes per edge (ends min -> max,
/// kinds and flags). Never fails; reads at most 4096 bytes.
Graph access_program_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes = 32);

/// \p g without edges and self-loops (header, nodes, subgraphs kept).
Graph without_edges(const Graph& g);

/// Parameters of random_unit_graph().
struct UnitGraphParams {
  std::uint32_t nodes = 20;     ///< Leaves in total.
  std::uint32_t max_depth = 4;  ///< Unit nesting depth.
  /// True: every unit's leaves are contiguous in program order (as walrus
  /// emits them). False: node ids are shuffled after the units are formed.
  bool contiguous = true;
  std::uint32_t edges = 20;     ///< Random forward edges.
};

/// A random graph with nested scheduling units (see the file comment).
/// Never has a node in two units. Cost: O(nodes * max_depth + edges).
Graph random_unit_graph(const UnitGraphParams& params, std::uint64_t seed);

/// Decodes fuzzer bytes into a unit graph: byte 0 -> leaves (1..40), byte 1 ->
/// flags (bit 0 shuffle ids, bit 1 a top-level node named like a generated
/// name, bit 2 one node listed in a second, random subgraph - possibly two
/// units, an error both twins must report); then one byte per step (open a
/// unit or a non-cluster subgraph, close, or a leaf); then edge byte pairs.
/// Never fails; reads at most 4096 bytes.
Graph unit_graph_from_bytes(const std::uint8_t* data, std::size_t size);

/// Every node with its accesses, every edge with kinds and flags, and the
/// subgraph tree, for failure messages. Cost: O(size of g).
std::string describe(const Graph& g);

/// One implementation of the SPEC §5 and §8 contracts. A third-party
/// implementation may leave any function null (a team with only a race
/// check): the properties and fuzz targets skip the contracts it lacks. The
/// optimized and reference entries set all five.
struct BuilderImpl {
  std::string name; ///< "optimized", "reference", ...
  std::vector<Dependence> (*computed_kinds)(const Graph&, const DependenceOptions&);
  Graph (*build_dependences)(const Graph&);
  std::vector<LabelMismatch> (*verify_labels)(const Graph&);
  std::vector<Race> (*find_races)(const Graph&);
  Graph (*expand_scheduling_units)(const Graph&, std::vector<std::string>*);
};

/// The optimized library and the reference oracle, in that order, then every
/// implementation added with register_builder_impl(). The properties and
/// fuzz_dependence_builder_diff, fuzz_label_verification_diff and fuzz_scheduling_units_diff compare every one with the
/// reference.
const std::vector<BuilderImpl>& builder_impls();
const BuilderImpl& optimized_builder();
const BuilderImpl& reference_builder();

/// Adds a third-party builder, label verifier, race check or unit expansion
/// (docs/testing.md), before the tests run: from a static initialiser in an
/// adapter file compiled into depreduce_props (-DDEPREDUCE_EXTRA_PROPS_SOURCES)
/// or the fuzz targets (-DDEPREDUCE_EXTRA_FUZZ_SOURCES).
/// \returns true (so it can initialise a static).
bool register_builder_impl(BuilderImpl impl);

/// GoogleTest printer: the implementation's name.
void PrintTo(const BuilderImpl& impl, std::ostream* os);

} // namespace depreduce::testing

#endif
