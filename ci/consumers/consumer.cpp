// A compiler pass vendoring depreduce: reduce the diamond a->b->c + a->c.
#include <cstdio>
#include <vector>

#include <depreduce/graph.hpp>
#include <depreduce/transitive_reduction.hpp>

int main() {
  using namespace depreduce;
  Graph g = graph_from_edges(3, {{0, 1}, {1, 2}, {0, 2}});
  Reduction r = reduce(g); // what goes: a -> c, at index r.removed[0].edge of g.edges
  std::vector<Edge> kept = kept_edges(g, r);
  std::printf("kept %zu, removed %zu\n", kept.size(), r.removed.size());
  return (kept.size() == 2 && r.removed.size() == 1 && r.removed[0].src == 0 && r.removed[0].dst == 2) ? 0 : 1;
}
