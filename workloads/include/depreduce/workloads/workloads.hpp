//===- depreduce/workloads/workloads.hpp - Instruction graphs -*- C++ -*-===//
///
/// \file
/// Generators of walrus-style instruction graphs for `depreduce generate`,
/// tests and benchmarks (library depreduce_workloads: the CLI links it, not
/// the test support library depreduce_testing, which links it too): instructions on 8 engines with byte-range accesses on
/// `sbuf`/`psum`/`dram`, edges derived from the real data hazards between them
/// (FLOW = read after the last write, OUTPUT = write after write, ANTI = write
/// after the reads since the last write), never drawn at random.
///
/// Engine numbering (8 = walrus numDataPathEngines):
///   0 tensor (matmul), 1 vector, 2 scalar/activation, 3 gpsimd,
///   4..7 DMA queues (asynchronous, window 2: a queue keeps two transfers in flight).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_WORKLOADS_WORKLOADS_HPP
#define DEPREDUCE_WORKLOADS_WORKLOADS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce::workloads {

/// Workload kinds `depreduce generate` knows.
enum class Workload {
  TiledMatmul, ///< C = A x B in tiles: DMA loads, PSUM accumulation chains, activation, stores, a barrier per phase.
  Attention,   ///< Flash-attention style: per query block, K/V loads, QK^T, softmax on scalar/vector, PV accumulation.
  RandomDag,   ///< No engines: each node to ~10 nodes 1..200 ahead (random_dag), for peer comparisons.
};

/// Names accepted by parse_workload(): "matmul", "attention", "dag".
std::vector<std::string> workload_names();
/// \throws std::invalid_argument for an unknown name.
Workload parse_workload(const std::string& name);

/// Generates about \p size instructions (at least one full tile/phase) of
/// \p kind. \p seed varies the tile shapes and which DMA queue serves a load.
/// Edges carry their computed kinds; every node has engine, async window and
/// accesses. Cost: O(size) time and memory.
Graph generate_workload(Workload kind, std::uint64_t size, std::uint64_t seed);

/// A random DAG without engines: every node i gets about \p out_degree edges
/// to nodes drawn uniformly from (i, i + span]. Nodes are named "0".."n-1".
/// The same \p seed gives the same graph. Cost: O(n * out_degree).
Graph random_dag(std::uint32_t n, std::uint32_t out_degree, std::uint32_t span, std::uint64_t seed);

} // namespace depreduce::workloads

#endif
