//===- bench/reduce_memory.cpp - Peak memory of reduce() ------------------===//
///
/// The memory targets, measured on whole graphs rather than timed:
///  - peak memory added by reduce() per input edge (target < 64 bytes), read
///    from the kernel's high-water mark (VmHWM, reset through
///    /proc/self/clear_refs before each call), the input graph excluded;
///  - closures follow the live frontier: a long chain holds O(1) closures,
///    a wide layered graph of the same size holds about one layer's worth.
/// Prints one Markdown table row per graph. Linux only (procfs).
/// Run: build/bench/reduce_memory [--quick]   (--quick: 10^5-node graphs)
//===----------------------------------------------------------------------===//
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "depreduce/testing/generators.hpp"
#include "depreduce/workloads/workloads.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace {
using namespace depreduce;

/// VmHWM (peak resident set) or VmRSS of this process, in bytes.
std::size_t status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field))) * 1024;
  return 0;
}

void reset_peak() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

/// Builds the graph and measures in a child process, so one graph's freed
/// heap cannot hide the next one's peak.
template <class Make> void measure(const char* label, Make make) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) { std::perror("fork"); std::exit(1); }
  if (pid > 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(1);
    return;
  }
  const Graph g = make();
  // Peak resident bytes added while f() runs. malloc_trim first hands back
  // what earlier steps freed, so "before" is the graph alone.
  auto peak_added = [](auto f) {
    malloc_trim(0);
    reset_peak();
    const std::size_t before = status_bytes("VmRSS:");
    f();
    const std::size_t peak = status_bytes("VmHWM:");
    return peak > before ? double(peak - before) : 0.0;
  };
  // The sweep alone (happens_before with no query runs exactly reduce()'s
  // sweep): compact arrays, per-node counters and the live closures.
  const double sweep = peak_added([&] { (void)happens_before(g, {}); });
  ReduceStats stats;
  std::size_t removed = 0;
  const double added = peak_added([&] {
    Reduction r = reduce(g, {}, &stats);
    removed = r.removed.size();
  });
  const double m = double(g.edges.size());
  std::printf("| %s | %zu | %zu | %zu | %.1f | %.1f MB | %.1f | %zu | %.1f KB |\n", label, g.nodes.size(),
              g.edges.size(), removed, sweep / m, added / 1e6, added / m, stats.peak_live_closures,
              double(stats.peak_closure_bytes) / 1e3);
  std::fflush(stdout);
  std::_Exit(0);
}

Graph chain(NodeId n) {
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (NodeId i = 0; i + 1 < n; ++i) edges.emplace_back(i, i + 1);
  for (NodeId i = 0; i + 3 < n; i += 3) edges.emplace_back(i, i + 3); // redundant shortcuts
  return graph_from_edges(n, edges);
}

/// `layers` layers of `width` nodes; each node to 4 nodes of the next layer.
Graph layered(NodeId layers, NodeId width) {
  std::vector<std::pair<NodeId, NodeId>> edges;
  std::uint64_t x = 88172645463325252ull;
  for (NodeId l = 0; l + 1 < layers; ++l)
    for (NodeId i = 0; i < width; ++i)
      for (int k = 0; k < 4; ++k) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        edges.emplace_back(l * width + i, (l + 1) * width + NodeId(x % width));
      }
  return graph_from_edges(layers * width, edges);
}

} // namespace

int main(int argc, char** argv) {
  const bool quick = argc == 2 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 2 || (argc == 2 && !quick)) {
    std::fprintf(stderr, "usage: reduce_memory [--quick]\n"
                         "  Peak memory added by depreduce::reduce on five generated graphs of 10^6 nodes\n"
                         "  (10^5 with --quick), one child process per graph; prints a Markdown table.\n");
    return std::strcmp(argv[1], "--help") == 0 ? 0 : 64;
  }
  const std::uint64_t n = quick ? 100000 : 1000000;
  std::printf("| graph | nodes | edges | removed | sweep alone, bytes per edge | peak added by reduce (incl. result) | bytes per edge | peak live closures | peak closure bytes |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  measure("tiled matmul (8 engines)", [&] { return workloads::generate_workload(workloads::Workload::TiledMatmul, n, 42); });
  measure("attention (8 engines)", [&] { return workloads::generate_workload(workloads::Workload::Attention, n, 42); });
  measure("chain + shortcuts (no engines)", [&] { return chain(static_cast<NodeId>(n)); });
  const NodeId side = quick ? 316 : 1000;
  measure("square layered, each node to 4 in the next layer (no engines)", [&] { return layered(side, side); });
  measure("random DAG, each node to ~10 within 200 (no engines)",
          [&] { return testing::random_dag(static_cast<std::uint32_t>(n), 10, 200, 42); });
  return 0;
}
