//===- bench/boost_tred.cpp - Boost's transitive_reduction as a peer -----===//
///
/// Whole-process peer for bench/peers.py: reads "src<TAB>dst" lines (a DAG) on
/// stdin, runs boost::transitive_reduction, writes the kept edges the same way.
//===----------------------------------------------------------------------===//
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/transitive_reduction.hpp>

#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

int main() {
  std::ios::sync_with_stdio(false);
  std::unordered_map<std::string, std::size_t> id;
  std::vector<std::string> names;
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  auto intern = [&](const std::string& s) {
    auto [it, fresh] = id.emplace(s, names.size());
    if (fresh) names.push_back(s);
    return it->second;
  };
  std::string line;
  while (std::getline(std::cin, line)) {
    auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::size_t a = intern(line.substr(0, tab)), b = intern(line.substr(tab + 1));
    edges.emplace_back(a, b);
  }
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  G g(names.size()), tr;
  for (auto [a, b] : edges) boost::add_edge(a, b, g);
  std::vector<std::size_t> g_to_tr(names.size());
  boost::transitive_reduction(g, tr, boost::make_iterator_property_map(g_to_tr.begin(), boost::get(boost::vertex_index, g)),
                              boost::get(boost::vertex_index, g));
  std::vector<std::size_t> tr_to_g(names.size());
  for (std::size_t v = 0; v < names.size(); ++v) tr_to_g[g_to_tr[v]] = v;
  for (auto e : boost::make_iterator_range(boost::edges(tr)))
    std::cout << names[tr_to_g[boost::source(e, tr)]] << '\t' << names[tr_to_g[boost::target(e, tr)]] << '\n';
  return 0;
}
