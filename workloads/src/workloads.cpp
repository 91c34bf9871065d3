//===- workloads.cpp - Tiled matmul, attention and random DAG workloads ----===//
#include "depreduce/workloads/workloads.hpp"

#include <algorithm>

#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>

namespace depreduce::workloads {
namespace {

constexpr Engine kTensor = 0, kVector = 1, kScalar = 2, kGpsimd = 3, kFirstDma = 4;
constexpr std::uint32_t kDmaWindow = 2;

/// Emits instructions and derives their edges from data hazards. Every access
/// in these workloads covers a whole tile, and tiles of one space never
/// overlap partially, so the hazards are tracked per (space, lo, hi).
class Emitter {
public:
  NodeId emit(std::string name, Engine engine, std::vector<ByteRange> reads, std::vector<ByteRange> writes,
              std::uint32_t async = 0, bool barrier = false) {
    NodeId id = static_cast<NodeId>(g_.nodes.size());
    Node v;
    v.name = std::move(name);
    v.engine = engine;
    v.async_window = async;
    v.barrier = barrier;
    v.reads = std::move(reads);
    v.writes = std::move(writes);
    for (const ByteRange& r : v.reads) {
      Tile& t = tiles_[key(r)];
      if (t.writer) add(*t.writer, id, Kind::Flow);
      t.readers.push_back(id);
    }
    for (const ByteRange& w : v.writes) {
      Tile& t = tiles_[key(w)];
      if (t.writer) add(*t.writer, id, Kind::Output);
      for (NodeId r : t.readers)
        if (r != id) add(r, id, Kind::Anti);
      t.readers.clear();
      // SPEC §5: a node that reads and writes the tile is itself a reader
      // since that write, so the next writer gets ANTI from it too.
      for (const ByteRange& r : v.reads)
        if (key(r) == key(w)) { t.readers.push_back(id); break; }
      t.writer = id;
    }
    g_.nodes.push_back(std::move(v));
    return id;
  }
  Graph finish(const std::string& name) {
    g_.name = name;
    g_.file = "<generate " + name + ">";
    g_.num_engines = 8;
    for (auto& [pair, kinds] : edges_) {
      Edge e;
      e.src = pair.first;
      e.dst = pair.second;
      e.kinds = kinds;
      g_.edges.push_back(e);
    }
    return make_program_order(std::move(g_));
  }

private:
  struct Tile {
    std::optional<NodeId> writer;
    std::vector<NodeId> readers;
  };
  static std::tuple<std::string, std::uint64_t, std::uint64_t> key(const ByteRange& r) { return {r.space, r.lo, r.hi}; }
  void add(NodeId p, NodeId c, Kind k) { edges_[{p, c}] |= k; }
  InputGraph g_;
  std::map<std::tuple<std::string, std::uint64_t, std::uint64_t>, Tile> tiles_;
  std::map<std::pair<NodeId, NodeId>, KindSet> edges_;
};

ByteRange tile(const char* space, std::uint64_t index, std::uint64_t bytes) {
  return {space, index * bytes, (index + 1) * bytes};
}

Graph tiled_matmul(std::uint64_t size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t k_tiles = 4 + rng() % 5;             // 4..8 reduction steps
  const std::uint64_t per_out = 3 * k_tiles + 2;            // loads, matmuls, act, store
  const std::uint64_t out_tiles = std::max<std::uint64_t>(1, size / per_out);
  const std::uint64_t n_tiles = std::max<std::uint64_t>(1, std::min<std::uint64_t>(8, out_tiles));
  const std::uint64_t tile_bytes = 2048, psum_bytes = 2048;
  Emitter em;
  std::uint64_t load = 0, out = 0;
  for (std::uint64_t t = 0; t < out_tiles; ++t) {
    const std::uint64_t m = t / n_tiles, n = t % n_tiles;
    const std::uint64_t psum = t % 4; // 4 PSUM banks in rotation
    for (std::uint64_t k = 0; k < k_tiles; ++k) {
      // Double-buffered SBUF slots for the A and B tiles (slot reuse -> WAR).
      const std::uint64_t slot = (load++) % 4;
      Engine qa = kFirstDma + static_cast<Engine>(rng() % 4), qb = kFirstDma + static_cast<Engine>(rng() % 4);
      std::string at = std::to_string(m) + "_" + std::to_string(k), bt = std::to_string(k) + "_" + std::to_string(n);
      em.emit("load_a" + at + "_t" + std::to_string(t), qa, {tile("dram", m * k_tiles + k, tile_bytes)},
              {tile("sbuf", 2 * slot, tile_bytes)}, kDmaWindow);
      em.emit("load_b" + bt + "_t" + std::to_string(t), qb, {tile("dram", 1000000 + k * n_tiles + n, tile_bytes)},
              {tile("sbuf", 2 * slot + 1, tile_bytes)}, kDmaWindow);
      std::vector<ByteRange> reads = {tile("sbuf", 2 * slot, tile_bytes), tile("sbuf", 2 * slot + 1, tile_bytes)};
      if (k > 0) reads.push_back(tile("psum", psum, psum_bytes)); // accumulate
      em.emit("matmul_t" + std::to_string(t) + "_k" + std::to_string(k), kTensor, reads,
              {tile("psum", psum, psum_bytes)});
    }
    const std::uint64_t oslot = 16 + (out++) % 2;
    em.emit("act_t" + std::to_string(t), kScalar, {tile("psum", psum, psum_bytes)}, {tile("sbuf", oslot, tile_bytes)});
    em.emit("store_t" + std::to_string(t), kFirstDma + static_cast<Engine>(t % 4), {tile("sbuf", oslot, tile_bytes)},
            {tile("dram", 2000000 + t, tile_bytes)}, kDmaWindow);
    // A phase ends with each output row: barriers on the DMA queues.
    if (n + 1 == n_tiles)
      for (Engine q = kFirstDma; q < kFirstDma + 4; ++q)
        em.emit("barrier_m" + std::to_string(m) + "_q" + std::to_string(q), q, {}, {}, 0, true);
  }
  return em.finish("tiled_matmul");
}

Graph attention(std::uint64_t size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t kv_blocks = 4 + rng() % 5;
  const std::uint64_t per_q = 2 + 7 * kv_blocks + 2;
  const std::uint64_t q_blocks = std::max<std::uint64_t>(1, size / per_q);
  const std::uint64_t b = 4096;
  Emitter em;
  std::uint64_t kv_load = 0;
  for (std::uint64_t q = 0; q < q_blocks; ++q) {
    const std::string qs = "_q" + std::to_string(q);
    const std::uint64_t qslot = 40 + q % 2, oslot = 42 + q % 2, acc = 8 + q % 2;
    em.emit("load_q" + qs, kFirstDma, {tile("dram", q, b)}, {tile("sbuf", qslot, b)}, kDmaWindow);
    em.emit("zero_o" + qs, kGpsimd, {}, {tile("sbuf", acc, b)});
    for (std::uint64_t j = 0; j < kv_blocks; ++j) {
      const std::string js = qs + "_kv" + std::to_string(j);
      const std::uint64_t slot = (kv_load++) % 3; // triple-buffered K/V
      Engine qk = kFirstDma + 1 + static_cast<Engine>(rng() % 3), qv = kFirstDma + 1 + static_cast<Engine>(rng() % 3);
      em.emit("load_k" + js, qk, {tile("dram", 100000 + j, b)}, {tile("sbuf", 2 * slot, b)}, kDmaWindow);
      em.emit("load_v" + js, qv, {tile("dram", 200000 + j, b)}, {tile("sbuf", 2 * slot + 1, b)}, kDmaWindow);
      em.emit("qk" + js, kTensor, {tile("sbuf", qslot, b), tile("sbuf", 2 * slot, b)}, {tile("psum", 0, b)});
      em.emit("rowmax" + js, kVector, {tile("psum", 0, b)}, {tile("sbuf", 20, b)});
      em.emit("exp" + js, kScalar, {tile("psum", 0, b), tile("sbuf", 20, b)}, {tile("sbuf", 21, b)});
      em.emit("pv" + js, kTensor, {tile("sbuf", 21, b), tile("sbuf", 2 * slot + 1, b)}, {tile("psum", 1, b)});
      em.emit("rescale" + js, kVector, {tile("psum", 1, b), tile("sbuf", acc, b)}, {tile("sbuf", acc, b)});
    }
    em.emit("normalize" + qs, kScalar, {tile("sbuf", acc, b)}, {tile("sbuf", oslot, b)});
    em.emit("store_o" + qs, kFirstDma, {tile("sbuf", oslot, b)}, {tile("dram", 300000 + q, b)}, kDmaWindow);
  }
  return em.finish("attention");
}

} // namespace

std::vector<std::string> workload_names() { return {"matmul", "attention", "dag"}; }

Workload parse_workload(const std::string& name) {
  if (name == "matmul") return Workload::TiledMatmul;
  if (name == "attention") return Workload::Attention;
  if (name == "dag") return Workload::RandomDag;
  throw std::invalid_argument("unknown workload '" + name + "' (expected matmul, attention or dag)");
}

Graph generate_workload(Workload kind, std::uint64_t size, std::uint64_t seed) {
  switch (kind) {
  case Workload::TiledMatmul: return tiled_matmul(size, seed);
  case Workload::Attention: return attention(size, seed);
  case Workload::RandomDag: break;
  }
  return random_dag(static_cast<std::uint32_t>(size), 10, 200, seed);
}

Graph random_dag(std::uint32_t n, std::uint32_t out_degree, std::uint32_t span, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<NodeId, NodeId>> edges;
  edges.reserve(std::size_t(n) * out_degree);
  for (NodeId i = 0; i < n; ++i) {
    std::uint32_t room = std::min<std::uint32_t>(span, n - 1 - i);
    if (room == 0) continue;
    std::uniform_int_distribution<std::uint32_t> ahead(1, room);
    for (std::uint32_t k = 0; k < out_degree; ++k) edges.emplace_back(i, i + ahead(rng));
  }
  return graph_from_edges(n, edges);
}

} // namespace depreduce::workloads
