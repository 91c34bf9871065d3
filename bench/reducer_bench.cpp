//===- reducer_bench.cpp - The compiler's entrance against its peers ------===//
///
/// Every path starts from what a compiler holds: per region
/// (GCC's scheduling regions of corpus/real/gcc-sched, SOURCES.md section 7)
/// two arrays `src`, `dst` of dependences in GCC's order (by producer), ids
/// 0..n-1 in the region's program order; every path ends with the list of
/// redundant edge indices. Paths:
///  - ReduceEdges: Reducer::reduce_edges() (one Reducer for all regions);
///  - Builder: GraphBuilder + Reducer::reduce(GraphBuilder);
///  - PublicApi: InputGraph (names) -> make_program_order -> reduce();
///  - ReduceOnly: reduce() on Graphs built before timing;
///  - BitsetFloor: per-node successor lists, then a std::bitset<256> closure
///    of descendants per node (the 20-line floor of the issue);
///  - Llvm: LLVM 14's online loop (llvm::ScheduleDAGTopologicalSort): per
///    node in program order, predecessors nearest first, `IsReachable` and,
///    if not implied, `AddPred` + `SUnit::addPred` (exact, as the issue's
///    table). Only when built with LLVM (DEPREDUCE_BENCH_LLVM).
/// BM_GccRegionsRatios runs them interleaved in each iteration, on the same
/// regions, and reports ns per region per path (thread CPU time) and the
/// ratios as counters.
/// The 20k-node DAG (`depreduce generate dag --size 20000 --seed 1`, i.e.
/// workloads::generate_workload(RandomDag, 20000, 1)) is run the same way.
///
/// Every path's removed count is checked against the manifest's (regions)
/// or reduce()'s (20k DAG) before timing: a fast wrong answer aborts.
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bitset>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/graph_builder.hpp"
#include "depreduce/reducer.hpp"
#include "depreduce/workloads/workloads.hpp"

#ifdef DEPREDUCE_BENCH_LLVM
#include <llvm/CodeGen/ScheduleDAG.h>
#endif

namespace {
using namespace depreduce;

/// One graph as a compiler holds it.
struct Arrays {
  std::uint32_t n = 0;
  std::vector<std::uint32_t> src, dst;
  std::size_t redundant = 0; ///< expected (manifest, or reduce())
};

std::filesystem::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d ? d : DEPREDUCE_SOURCE_DIR_DEFAULT;
}

const std::vector<Arrays>& gcc_regions() {
  static const std::vector<Arrays> regions = [] {
    std::vector<Arrays> out;
    const auto dir = source_dir() / "corpus" / "real" / "gcc-sched" / "regions";
    std::ifstream manifest(dir / "regions.tsv");
    std::string line;
    std::getline(manifest, line);
    while (std::getline(manifest, line)) {
      std::stringstream ss(line);
      std::string file;
      std::size_t nodes = 0, edges = 0, redundant = 0;
      ss >> file >> nodes >> edges >> redundant;
      const InputGraph in = formats::read_graph((dir / file).string());
      Arrays a;
      a.n = static_cast<std::uint32_t>(in.nodes.size());
      for (const Edge& e : in.edges) a.src.push_back(e.src), a.dst.push_back(e.dst);
      a.redundant = redundant;
      out.push_back(std::move(a));
    }
    if (out.empty()) {
      std::fprintf(stderr, "no regions under %s (set DEPREDUCE_SOURCE_DIR)\n", dir.string().c_str());
      std::exit(1);
    }
    return out;
  }();
  return regions;
}

Arrays arrays_of(const Graph& g) {
  Arrays a;
  a.n = static_cast<std::uint32_t>(g.nodes.size());
  for (const Edge& e : g.edges) a.src.push_back(e.src), a.dst.push_back(e.dst);
  return a;
}

const Graph& dag20k() {
  static const Graph g = workloads::generate_workload(workloads::Workload::RandomDag, 20000, 1);
  return g;
}
const Arrays& dag20k_arrays() {
  static const Arrays a = [] {
    Arrays x = arrays_of(dag20k());
    x.redundant = reduce(dag20k()).removed.size();
    return x;
  }();
  return a;
}

// ---- The paths. Each takes the arrays and fills `removed` (edge indices). ----

struct OursArrays {
  Reducer reducer;
  std::vector<std::uint8_t> keep;
  void run(const Arrays& a, std::vector<std::uint32_t>& removed) {
    keep.resize(a.src.size());
    if (!reducer.reduce_edges(a.n, a.src, a.dst, keep).ok()) std::abort();
    removed.clear();
    for (std::uint32_t i = 0; i < keep.size(); ++i)
      if (!keep[i]) removed.push_back(i);
  }
};

struct OursBuilder {
  Reducer reducer;
  GraphBuilder builder;
  Reduction red;
  void run(const Arrays& a, std::vector<std::uint32_t>& removed) {
    builder.clear();
    for (std::uint32_t v = 0; v < a.n; ++v) builder.add_node();
    for (std::size_t i = 0; i < a.src.size(); ++i) builder.add_edge(a.src[i], a.dst[i]);
    if (!reducer.reduce(builder, red).ok()) std::abort();
    removed.clear(); // merged-edge indices: the same count (no duplicates in these inputs)
    for (const RemovedEdge& e : red.removed) removed.push_back(e.edge);
  }
};

struct PublicApi {
  void run(const Arrays& a, std::vector<std::uint32_t>& removed) {
    InputGraph in;
    in.nodes.resize(a.n);
    for (std::uint32_t v = 0; v < a.n; ++v) in.nodes[v].name = std::to_string(v);
    in.edges.resize(a.src.size());
    for (std::size_t i = 0; i < a.src.size(); ++i) in.edges[i].src = a.src[i], in.edges[i].dst = a.dst[i];
    const Graph g = make_program_order(std::move(in));
    const Reduction r = reduce(g);
    removed.clear();
    for (const RemovedEdge& e : r.removed) removed.push_back(e.edge);
  }
};

/// The floor: successor lists (counting sort by producer, reused buffers),
/// then descendants as one std::bitset<256> per node, producers in
/// descending order; an edge u -> v is redundant iff v is a descendant of
/// another successor of u. Needs n <= 256 and ids in program order.
struct BitsetFloor {
  std::vector<std::uint32_t> begin, list;
  std::vector<std::bitset<256>> desc;
  void run(const Arrays& a, std::vector<std::uint32_t>& removed) {
    const std::uint32_t n = a.n;
    begin.assign(n + 1, 0);
    for (std::uint32_t s : a.src) ++begin[s + 1];
    for (std::uint32_t v = 0; v < n; ++v) begin[v + 1] += begin[v];
    list.resize(a.src.size());
    for (std::uint32_t i = 0; i < a.src.size(); ++i) list[begin[a.src[i]]++] = i;
    for (std::uint32_t v = n; v > 0; --v) begin[v] = begin[v - 1];
    begin[0] = 0;
    desc.assign(n, {});
    removed.clear();
    for (std::uint32_t u = n; u-- > 0;) {
      std::bitset<256> via;
      for (std::uint32_t k = begin[u]; k < begin[u + 1]; ++k) via |= desc[a.dst[list[k]]];
      for (std::uint32_t k = begin[u]; k < begin[u + 1]; ++k) {
        const std::uint32_t v = a.dst[list[k]];
        if (via[v]) removed.push_back(list[k]);
        via.set(v);
      }
      desc[u] = via;
    }
  }
};

#ifdef DEPREDUCE_BENCH_LLVM
/// LLVM 14's online form: the scheduler's DAG grows edge by edge, each edge
/// first asked `IsReachable` (is the consumer already reachable from the
/// producer?), then added to the topological order (`AddPred`) and to the
/// SUnits (`addPred`). Predecessor lists from the arrays (counting sort by
/// consumer, reused buffers), nearest predecessor first.
struct Llvm {
  std::vector<std::uint32_t> begin, list;
  std::vector<llvm::SUnit> units;
  llvm::SUnit exit_unit;
  void run(const Arrays& a, std::vector<std::uint32_t>& removed) {
    const std::uint32_t n = a.n;
    begin.assign(n + 1, 0);
    for (std::uint32_t d : a.dst) ++begin[d + 1];
    for (std::uint32_t v = 0; v < n; ++v) begin[v + 1] += begin[v];
    list.resize(a.src.size());
    for (std::uint32_t i = 0; i < a.src.size(); ++i) list[begin[a.dst[i]]++] = i;
    for (std::uint32_t v = n; v > 0; --v) begin[v] = begin[v - 1];
    begin[0] = 0;
    for (std::uint32_t c = 0; c < n; ++c) // nearest (highest id) predecessor first
      std::sort(list.begin() + begin[c], list.begin() + begin[c + 1],
                [&](std::uint32_t x, std::uint32_t y) { return a.src[x] > a.src[y]; });
    units.clear();
    units.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) units.emplace_back(static_cast<llvm::MachineInstr*>(nullptr), v);
    llvm::ScheduleDAGTopologicalSort topo(units, &exit_unit);
    topo.InitDAGTopologicalSorting();
    removed.clear();
    for (std::uint32_t c = 0; c < n; ++c)
      for (std::uint32_t k = begin[c]; k < begin[c + 1]; ++k) {
        const std::uint32_t i = list[k];
        llvm::SUnit* p = &units[a.src[i]];
        if (topo.IsReachable(&units[c], p)) {
          removed.push_back(i);
          continue;
        }
        topo.AddPred(&units[c], p);
        units[c].addPred(llvm::SDep(p, llvm::SDep::Data, 0));
      }
  }
};
#endif

template <class Path>
void check(Path& path, const char* name, const std::vector<Arrays>& graphs) {
  std::vector<std::uint32_t> removed;
  for (const Arrays& a : graphs) {
    path.run(a, removed);
    if (removed.size() != a.redundant) {
      std::fprintf(stderr, "%s: %zu removed, expected %zu\n", name, removed.size(), a.redundant);
      std::abort();
    }
  }
}

template <class Path>
void BM_GccRegions(benchmark::State& state) {
  const auto& regions = gcc_regions();
  Path path;
  check(path, "path", regions);
  std::vector<std::uint32_t> removed;
  for (auto _ : state)
    for (const Arrays& a : regions) {
      path.run(a, removed);
      benchmark::DoNotOptimize(removed.data());
    }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * regions.size()));
  state.counters["per_region"] = benchmark::Counter(static_cast<double>(regions.size()),
                                                       benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

void BM_GccRegions_ReduceOnly(benchmark::State& state) {
  const auto& regions = gcc_regions();
  std::vector<Graph> graphs;
  for (const Arrays& a : regions) {
    InputGraph in;
    in.nodes.resize(a.n);
    for (std::uint32_t v = 0; v < a.n; ++v) in.nodes[v].name = std::to_string(v);
    for (std::size_t i = 0; i < a.src.size(); ++i) {
      Edge& e = in.edges.emplace_back();
      e.src = a.src[i], e.dst = a.dst[i];
    }
    graphs.push_back(make_program_order(std::move(in)));
  }
  for (auto _ : state)
    for (const Graph& g : graphs) benchmark::DoNotOptimize(reduce(g));
  state.counters["per_region"] = benchmark::Counter(static_cast<double>(regions.size()),
                                                       benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

/// Times one path over \p graphs. The Ratios benchmarks call it for each
/// path in turn within every iteration (so a slower or faster stretch of the
/// host hits every path alike); their counters are ns per graph and ratios.
/// This thread's CPU time in ns: on a shared host (2 cores, many jobs) wall
/// time also counts the time the thread waited for a core.
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

template <class Path>
double time_once(Path& path, const std::vector<Arrays>& graphs, std::vector<std::uint32_t>& removed) {
  const double t0 = thread_cpu_ns();
  for (const Arrays& a : graphs) {
    path.run(a, removed);
    benchmark::DoNotOptimize(removed.data());
  }
  return thread_cpu_ns() - t0;
}

void BM_GccRegionsRatios(benchmark::State& state) {
  const auto& regions = gcc_regions();
  OursArrays ours;
  OursBuilder builder;
  PublicApi api;
  BitsetFloor floor;
  check(ours, "reduce_edges", regions);
  check(builder, "builder", regions);
  check(api, "public api", regions);
  check(floor, "bitset floor", regions);
#ifdef DEPREDUCE_BENCH_LLVM
  Llvm llvm_path;
  check(llvm_path, "llvm", regions);
  double t_llvm = 0;
#endif
  double t_ours = 0, t_builder = 0, t_api = 0, t_floor = 0;
  std::vector<std::uint32_t> removed;
  for (auto _ : state) {
    t_ours += time_once(ours, regions, removed);
    t_builder += time_once(builder, regions, removed);
    t_api += time_once(api, regions, removed);
    t_floor += time_once(floor, regions, removed);
#ifdef DEPREDUCE_BENCH_LLVM
    t_llvm += time_once(llvm_path, regions, removed);
#endif
  }
  const double per = static_cast<double>(state.iterations()) * static_cast<double>(regions.size());
  state.counters["regions"] = static_cast<double>(regions.size());
  state.counters["ns_reduce_edges"] = t_ours / per;
  state.counters["ns_builder"] = t_builder / per;
  state.counters["ns_public_api"] = t_api / per;
  state.counters["ns_bitset_floor"] = t_floor / per;
  state.counters["ours_over_floor"] = t_ours / t_floor;
  state.counters["builder_over_floor"] = t_builder / t_floor;
#ifdef DEPREDUCE_BENCH_LLVM
  state.counters["ns_llvm_online"] = t_llvm / per;
  state.counters["ours_over_llvm"] = t_ours / t_llvm;
  state.counters["builder_over_llvm"] = t_builder / t_llvm;
#endif
}

/// reduce() alone on the prebuilt Graph.
struct ReduceAlone {
  void run(const Arrays&, std::vector<std::uint32_t>& removed) {
    const Reduction r = reduce(dag20k());
    removed.clear();
    for (const RemovedEdge& e : r.removed) removed.push_back(e.edge);
  }
};

void BM_Dag20kRatios(benchmark::State& state) {
  const std::vector<Arrays> graphs{dag20k_arrays()};
  OursArrays ours;
  OursBuilder builder;
  ReduceAlone alone;
  check(ours, "reduce_edges", graphs);
  check(builder, "builder", graphs);
  check(alone, "reduce", graphs);
#ifdef DEPREDUCE_BENCH_LLVM
  Llvm llvm_path;
  check(llvm_path, "llvm", graphs);
  double t_llvm = 0;
#endif
  double t_ours = 0, t_builder = 0, t_alone = 0;
  std::vector<std::uint32_t> removed;
  for (auto _ : state) {
    t_ours += time_once(ours, graphs, removed);
    t_builder += time_once(builder, graphs, removed);
    t_alone += time_once(alone, graphs, removed);
#ifdef DEPREDUCE_BENCH_LLVM
    t_llvm += time_once(llvm_path, graphs, removed);
#endif
  }
  const double it = static_cast<double>(state.iterations());
  state.counters["edges"] = static_cast<double>(graphs[0].src.size());
  state.counters["ms_reduce_alone"] = t_alone / it / 1e6;
  state.counters["ms_builder_and_reduce"] = t_builder / it / 1e6;
  state.counters["ms_reduce_edges"] = t_ours / it / 1e6;
  state.counters["builder_over_reduce"] = t_builder / t_alone;
  state.counters["reduce_edges_over_reduce"] = t_ours / t_alone;
#ifdef DEPREDUCE_BENCH_LLVM
  state.counters["ms_llvm_online"] = t_llvm / it / 1e6;
  state.counters["llvm_over_builder"] = t_llvm / t_builder;
  state.counters["llvm_over_reduce_edges"] = t_llvm / t_ours;
#endif
}

} // namespace

BENCHMARK(BM_GccRegionsRatios)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_TEMPLATE(BM_GccRegions, OursArrays)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_GccRegions, OursBuilder)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_GccRegions, PublicApi)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_GccRegions, BitsetFloor)->Unit(benchmark::kMicrosecond);
#ifdef DEPREDUCE_BENCH_LLVM
BENCHMARK_TEMPLATE(BM_GccRegions, Llvm)->Unit(benchmark::kMicrosecond);
#endif
BENCHMARK(BM_GccRegions_ReduceOnly)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dag20kRatios)->Unit(benchmark::kMillisecond)->MinTime(3.0);

BENCHMARK_MAIN();
