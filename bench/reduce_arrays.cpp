//===- bench/reduce_arrays.cpp - reduce() on edge arrays, for python_bench ===//
///
/// \file
/// The C++ side of bench/python_bench.py: reads a graph written as raw
/// arrays (little-endian uint32: n, m, src[m], dst[m]; ids in any order),
/// builds the Graph once (graph_from_edges(), not timed) and times reduce()
/// on it, --runs times. Prints one JSON line: {"n", "m", "kept", "runs_s":
/// [...], "median_s", "peak_rss_delta_bytes"} where the peak is the process's
/// resident high-water mark reached during the first reduce() above its
/// size just before (Linux /proc/self/clear_refs + VmHWM; -1 elsewhere).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "depreduce/transitive_reduction.hpp"

namespace {

long long status_kib(const char* key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) return std::atoll(line.c_str() + std::char_traits<char>::length(key));
  return -1;
}

bool reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  return static_cast<bool>(f.flush());
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: reduce_arrays FILE [RUNS]\n");
    return 64;
  }
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::ifstream in(argv[1], std::ios::binary);
  std::uint32_t head[2] = {0, 0};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  std::vector<std::uint32_t> src(head[1]), dst(head[1]);
  in.read(reinterpret_cast<char*>(src.data()), static_cast<std::streamsize>(src.size() * 4));
  in.read(reinterpret_cast<char*>(dst.data()), static_cast<std::streamsize>(dst.size() * 4));
  if (!in) {
    std::fprintf(stderr, "reduce_arrays: %s: truncated\n", argv[1]);
    return 2;
  }
  std::vector<std::pair<depreduce::NodeId, depreduce::NodeId>> edges(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) edges[i] = {src[i], dst[i]};
  const depreduce::Graph g = depreduce::graph_from_edges(head[0], edges);
  edges.clear();
  edges.shrink_to_fit();
  std::vector<double> times;
  std::size_t kept = 0;
  long long peak = -1;
  for (int r = 0; r < runs; ++r) {
    const bool measure = r == 0 && reset_peak();
    const long long before = measure ? status_kib("VmRSS:") : -1;
    const auto t0 = std::chrono::steady_clock::now();
    const depreduce::Reduction red = depreduce::reduce(g);
    const auto t1 = std::chrono::steady_clock::now();
    if (measure && before >= 0) peak = (status_kib("VmHWM:") - before) * 1024;
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
    kept = g.edges.size() - red.removed.size();
  }
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  std::printf("{\"n\": %u, \"m\": %u, \"kept\": %zu, \"median_s\": %.6f, \"min_s\": %.6f, \"peak_rss_delta_bytes\": %lld, \"runs_s\": [",
              head[0], head[1], kept, sorted[sorted.size() / 2], sorted.front(), peak);
  for (std::size_t i = 0; i < times.size(); ++i) std::printf("%s%.6f", i ? ", " : "", times[i]);
  std::printf("]}\n");
  return 0;
}
