//===- bench/transitive_reduction_bench.cpp - Reduction speed ------------===//
///
/// Google Benchmark over both twins and Boost's own transitive_reduction:
///  - BM_Reduce<impl>/n: random DAGs, each node to ~10 nodes 1..200 ahead
///    (n = 20,000 has a target: < 25 ns per input edge, >= 100x Boost);
///  - BM_ReduceOptimizedKeptEdges/20000: the same plus kept_edges() (the
///    reduced edge list as new Edge records);
///  - BM_ReduceEngines/n: walrus-style graphs on 8 engines;
///  - BM_ReduceReal/<file>: the graphs of corpus/real/.
/// Counters: ns_per_edge (wall time per input edge), peak_live_closures.
/// Run: build/bench/transitive_reduction_bench --benchmark_counters_tabular=true
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/transitive_reduction.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace {
using namespace depreduce;

const Graph& dag(std::uint32_t n) {
  static std::map<std::uint32_t, Graph> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, testing::random_dag(n, 10, 200, 42)).first;
  return it->second;
}

void BM_ReduceOptimized(benchmark::State& state) {
  const Graph& g = dag(static_cast<std::uint32_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(reduce(g));
  ReduceStats s; // statistics cost extra (closure sizes): taken once, outside the timing
  reduce(g, {}, &s);
  state.counters["edges"] = double(g.edges.size());
  state.counters["ns_per_edge"] = benchmark::Counter(double(g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["peak_live_closures"] = double(s.peak_live_closures);
}
BENCHMARK(BM_ReduceOptimized)->Arg(1000)->Arg(20000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

// reduce() returns what goes; a caller that wants the reduced edge list as
// new Edge records (as the CLI does, through apply()) also pays kept_edges().
void BM_ReduceOptimizedKeptEdges(benchmark::State& state) {
  const Graph& g = dag(static_cast<std::uint32_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(kept_edges(g, reduce(g)));
  state.counters["ns_per_edge"] = benchmark::Counter(double(g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReduceOptimizedKeptEdges)->Arg(20000)->Unit(benchmark::kMillisecond);

void BM_ReduceReference(benchmark::State& state) {
  const Graph& g = dag(static_cast<std::uint32_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(reference::reduce(g));
  state.counters["ns_per_edge"] = benchmark::Counter(double(g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReduceReference)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);

void BM_BoostTransitiveReduction(benchmark::State& state) {
  const Graph& g = dag(static_cast<std::uint32_t>(state.range(0)));
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  BG bg(g.nodes.size());
  for (const Edge& e : g.edges) boost::add_edge(e.src, e.dst, bg);
  for (auto _ : state) {
    BG tr;
    std::vector<std::size_t> to_tr(boost::num_vertices(bg));
    boost::transitive_reduction(bg, tr, boost::make_iterator_property_map(to_tr.begin(), boost::get(boost::vertex_index, bg)),
                                boost::get(boost::vertex_index, bg));
    benchmark::DoNotOptimize(boost::num_edges(tr));
  }
  state.counters["ns_per_edge"] = benchmark::Counter(double(g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_BoostTransitiveReduction)->Arg(1000)->Arg(20000)->Unit(benchmark::kMillisecond);

void BM_ReduceEngines(benchmark::State& state) {
  static std::map<std::int64_t, Graph> cache;
  auto it = cache.find(state.range(0));
  if (it == cache.end()) {
    testing::EngineGraphParams p;
    p.nodes = static_cast<std::uint32_t>(state.range(0));
    p.engines = 8;
    p.out_degree = 3;
    p.span = 64;
    p.allow_no_engine = false;
    it = cache.emplace(state.range(0), testing::random_engine_graph(p, 7)).first;
  }
  const Graph& g = it->second;
  for (auto _ : state) benchmark::DoNotOptimize(reduce(g));
  ReduceStats s;
  reduce(g, {}, &s);
  state.counters["ns_per_edge"] = benchmark::Counter(double(g.edges.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["peak_live_closures"] = double(s.peak_live_closures);
}
BENCHMARK(BM_ReduceEngines)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

/// One benchmark per real graph, registered at start-up.
void register_real_graphs() {
  const char* root = std::getenv("DEPREDUCE_SOURCE_DIR");
  std::filesystem::path dir = std::filesystem::path(root ? root : ".") / "corpus" / "real";
  if (!std::filesystem::exists(dir)) {
    std::fprintf(stderr, "note: %s not found: BM_ReduceReal/* left out (set DEPREDUCE_SOURCE_DIR to the source tree)\n",
                 dir.string().c_str());
    return;
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md") continue;
    std::string path = entry.path().string();
    Graph g;
    try {
      g = make_program_order(formats::read_graph(path));
    } catch (const InputError&) {
      continue; // cyclic example
    }
    auto shared = std::make_shared<Graph>(std::move(g));
    std::string name = std::filesystem::relative(entry.path(), dir).string();
    benchmark::RegisterBenchmark(("BM_ReduceReal/optimized/" + name).c_str(), [shared](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(reduce(*shared));
    })->Unit(benchmark::kMicrosecond);
    if (shared->nodes.size() <= 2000)
      benchmark::RegisterBenchmark(("BM_ReduceReal/reference/" + name).c_str(), [shared](benchmark::State& st) {
        for (auto _ : st) benchmark::DoNotOptimize(reference::reduce(*shared));
      })->Unit(benchmark::kMicrosecond);
  }
}

} // namespace

int main(int argc, char** argv) {
  register_real_graphs();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
