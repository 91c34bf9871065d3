// A compiler pass vendoring depreduce::builder: derive the edges of three
// instructions from what they read and write, then reduce them.
//   a writes sbuf[0,64); b reads sbuf[0,64), writes sbuf[64,128); c reads sbuf[0,128)
// Computed kinds: a -> b FLOW, a -> c FLOW, b -> c FLOW; a -> c is implied by a -> b -> c.
#include <cstdio>

#include <depreduce/dependence_builder.hpp>
#include <depreduce/graph.hpp>
#include <depreduce/transitive_reduction.hpp>

int main() {
  using namespace depreduce;
  Graph g = graph_from_edges(3, {});
  g.nodes[0].writes = {{"sbuf", 0, 64}};
  g.nodes[1].reads = {{"sbuf", 0, 64}};
  g.nodes[1].writes = {{"sbuf", 64, 128}};
  g.nodes[2].reads = {{"sbuf", 0, 128}};
  Graph built = build_dependences(g);
  Reduction r = reduce(built);
  std::printf("built %zu edges, removed %zu\n", built.edges.size(), r.removed.size());
  return (built.edges.size() == 3 && r.removed.size() == 1 && r.removed[0].src == 0 && r.removed[0].dst == 2) ? 0 : 1;
}
