//===- bench/online_reduction_bench.cpp - Online queries vs reduce() -----===//
///
/// Google Benchmark: the online reducer driven as a list
/// scheduler drives it - per node in program order add_node(), one implied()
/// query per incoming edge (with the edge's kinds), then add_edges() - against
/// reduce() of the whole graph, on the same graph in the same run:
///  - BM_Online/dag and BM_Reduce/dag: the 20,000-node random DAG of
///    transitive_reduction_bench (each node to ~10 nodes 1..200 ahead, no engines);
///  - BM_Online/matmul and BM_Reduce/matmul: a 10^5-instruction tiled matmul
///    stream (workloads::generate_workload, `depreduce generate matmul`: 8 engines,
///    asynchronous DMA queues, barriers).
/// Successor counts are declared up front (a compiler knows its users), so
/// closures are released as in reduce(). Counters: ns_per_edge (wall time per
/// explicit edge: implied + add for the online form), peak_live_closures.
/// The target: the online ns_per_edge within 2x of reduce()'s.
/// Run: build/bench/online_reduction_bench --benchmark_counters_tabular=true
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "depreduce/online_reduction.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/workloads/workloads.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace {
using namespace depreduce;

/// A graph and what the online loop feeds: per node its spec and its
/// incoming parts (parts_to_write of each merged edge).
struct Stream {
  Graph g;
  std::vector<OnlineNodeSpec> specs;
  std::vector<std::uint32_t> in_begin; // CSR over `in`
  std::vector<OnlineEdge> in;
};

Stream make_stream(Graph g) {
  Stream s;
  const std::size_t n = g.nodes.size();
  std::vector<std::uint32_t> consumers(n, 0);
  std::vector<std::vector<OnlineEdge>> in(n);
  for (const Edge& e : g.edges) {
    consumers[e.src] += is_wait(e);
    for (const EdgePart& p : parts_to_write(e)) in[e.dst].push_back({e.src, p.kinds, p.flags});
  }
  s.in_begin.push_back(0);
  for (std::size_t v = 0; v < n; ++v) {
    const Node& node = g.nodes[v];
    s.specs.push_back({node.engine, node.async_window, node.barrier, consumers[v]});
    s.in.insert(s.in.end(), in[v].begin(), in[v].end());
    s.in_begin.push_back(static_cast<std::uint32_t>(s.in.size()));
  }
  s.g = std::move(g);
  return s;
}

const Stream& stream(int which) {
  static const Stream dag = make_stream(testing::random_dag(20000, 10, 200, 42));
  static const Stream matmul = make_stream(workloads::generate_workload(workloads::Workload::TiledMatmul, 100000, 1));
  return which == 0 ? dag : matmul;
}

void check(const Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "online_reduction_bench: %s\n", s.message().c_str());
    std::abort();
  }
}

void set_counters(benchmark::State& state, const Stream& s) {
  state.SetLabel(state.range(0) == 0 ? "dag 20000" : "matmul 1e5");
  state.counters["nodes"] = double(s.g.nodes.size());
  state.counters["edges"] = double(s.g.edges.size());
  state.counters["ns_per_edge"] = benchmark::Counter(double(s.g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Online(benchmark::State& state) {
  const Stream& s = stream(static_cast<int>(state.range(0)));
  OnlineReducer r;
  std::vector<RemovedEdge> removed;
  std::size_t total_removed = 0;
  const OnlineOptions options{s.g.num_engines, {}};
  for (auto _ : state) {
    check(r.reset(options));
    total_removed = 0;
    for (std::size_t v = 0; v < s.specs.size(); ++v) {
      NodeId c = 0;
      check(r.add_node(s.specs[v], &c));
      const std::span<const OnlineEdge> edges(s.in.data() + s.in_begin[v], s.in_begin[v + 1] - s.in_begin[v]);
      bool implied = false;
      for (const OnlineEdge& e : edges) {
        check(r.implied(e.src, c, e.kinds, &implied));
        benchmark::DoNotOptimize(implied);
      }
      check(r.add_edges(c, edges, removed));
      total_removed += removed.size();
    }
  }
  set_counters(state, s);
  state.counters["removed"] = double(total_removed);
  state.counters["peak_live_closures"] = double(r.peak_live_closures());
}
BENCHMARK(BM_Online)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Reduce(benchmark::State& state) {
  const Stream& s = stream(static_cast<int>(state.range(0)));
  std::size_t total_removed = 0;
  for (auto _ : state) {
    const Reduction r = reduce(s.g);
    total_removed = r.removed.size();
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, s);
  state.counters["removed"] = double(total_removed);
  ReduceStats stats;
  reduce(s.g, {}, &stats);
  state.counters["peak_live_closures"] = double(stats.peak_live_closures);
}
BENCHMARK(BM_Reduce)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
