//===- bench/dependence_builder_bench.cpp - Build, reduce, verify ---------===//
///
/// Google Benchmark of the SPEC §5 pipeline on generated walrus-style
/// instruction graphs (workloads::generate_workload, 8 engines, sbuf/psum/dram
/// tiles) with their edges stripped, so the builder re-derives them:
///  - BM_Build/<workload>/n: computed kinds + the built graph (dep_opt);
///  - BM_Reduce/<workload>/n: exact reduction of the built graph;
///  - BM_VerifyLabels/<workload>/n: verifyAntiDependence on the reduced graph;
///  - BM_RaceCheck/<workload>/n: race check of the reduced graph;
///  - BM_Pipeline/<workload>/n: all four, as `depreduce build` + `reduce` +
///    `verify` would run them (minus I/O);
///  - BM_*Reference/...: the reference twins on small inputs (O(n^3)).
/// Workload 0 = tiled matmul, 1 = attention. Counters: instructions, edges
/// (built), removed, ns_per_instruction.
/// Run: build/bench/dependence_builder_bench --benchmark_counters_tabular=true
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <utility>

#include "depreduce/dependence_builder.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/race_check.hpp"
#include "depreduce/reference/dependence_builder.hpp"
#include "depreduce/reference/label_verification.hpp"
#include "depreduce/reference/race_check.hpp"
#include "depreduce/testing/access_programs.hpp"
#include "depreduce/workloads/workloads.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace {
using namespace depreduce;

struct Input {
  Graph stripped; ///< The workload without edges.
  Graph built;    ///< build_dependences(stripped).
  Graph reduced;  ///< apply(built, reduce(built)).
  std::size_t removed = 0;
};

const Input& input(std::int64_t workload, std::int64_t size) {
  static std::map<std::pair<std::int64_t, std::int64_t>, Input> cache;
  auto key = std::make_pair(workload, size);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Input in;
  const auto kind = workload == 0 ? workloads::Workload::TiledMatmul : workloads::Workload::Attention;
  in.stripped = testing::without_edges(workloads::generate_workload(kind, static_cast<std::uint64_t>(size), 42));
  in.built = build_dependences(in.stripped);
  Reduction r = reduce(in.built);
  in.removed = r.removed.size();
  in.reduced = apply(in.built, r);
  // The pipeline must hold: a built graph is clean, its reduction race-free.
  if (!verify_labels(in.built).empty() || !find_races(in.reduced).empty()) std::abort();
  return cache.emplace(key, std::move(in)).first->second;
}

void counters(benchmark::State& state, const Input& in) {
  state.counters["instructions"] = double(in.stripped.nodes.size());
  state.counters["edges"] = double(in.built.edges.size());
  state.counters["removed"] = double(in.removed);
  state.counters["ns_per_instruction"] = benchmark::Counter(
      double(in.stripped.nodes.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Build(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(build_dependences(in.stripped));
  counters(state, in);
}

void BM_Reduce(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(reduce(in.built));
  counters(state, in);
}

void BM_VerifyLabels(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(verify_labels(in.reduced));
  counters(state, in);
}

void BM_RaceCheck(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(find_races(in.reduced));
  counters(state, in);
}

void BM_Pipeline(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) {
    Graph built = build_dependences(in.stripped);
    Graph reduced = apply(built, reduce(built));
    benchmark::DoNotOptimize(verify_labels(reduced));
    benchmark::DoNotOptimize(find_races(reduced));
  }
  counters(state, in);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t workload : {0, 1})
    for (std::int64_t n : {10000, 100000, 1000000}) b->Args({workload, n});
  b->ArgNames({"workload", "n"})->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Build)->Apply(sizes);
BENCHMARK(BM_Reduce)->Apply(sizes);
BENCHMARK(BM_VerifyLabels)->Apply(sizes);
BENCHMARK(BM_RaceCheck)->Apply(sizes);
BENCHMARK(BM_Pipeline)->Apply(sizes);

// The reference twins, for scale (O(n^3 * pieces); small inputs only).
void BM_BuildReference(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(reference::build_dependences(in.stripped));
  counters(state, in);
}
void BM_VerifyReference(benchmark::State& state) {
  const Input& in = input(state.range(0), state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(reference::verify_labels(in.reduced));
    benchmark::DoNotOptimize(reference::find_races(in.reduced));
  }
  counters(state, in);
}
void small(benchmark::internal::Benchmark* b) {
  for (std::int64_t workload : {0, 1}) b->Args({workload, 120});
  b->ArgNames({"workload", "n"})->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_BuildReference)->Apply(small);
BENCHMARK(BM_VerifyReference)->Apply(small);

} // namespace

BENCHMARK_MAIN();
