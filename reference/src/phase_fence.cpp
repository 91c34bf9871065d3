//===- phase_fence.cpp - TEST ORACLE: orchestration interpreter ----------===//
///
/// \file
/// TEST ORACLE — NOT FOR PRODUCTION. Unrolls a program into its dynamic task
/// graph by running it; happens-before is breadth-first search in a
/// Boost.Graph adjacency list. No cleverness on purpose.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/phase_fence.hpp"
#include "depreduce/reference/orchestration_ir.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <variant>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include "depreduce/error.hpp"

namespace depreduce::reference {

std::size_t DynamicGraph::edge_count() const noexcept {
  std::size_t e = 0;
  for (const DynTask& t : tasks) e += t.deps.size();
  return e;
}

std::size_t DynamicGraph::real_task_count() const noexcept {
  return static_cast<std::size_t>(std::count_if(tasks.begin(), tasks.end(), [](const DynTask& t) { return !t.dummy; }));
}

namespace {

using namespace depreduce::orch;

const std::string kFile = "<program>";

/// A runtime value. Arrays are indices into the interpreter's storage list,
/// so two handles to one storage see each other's updates.
struct IntVal { std::int64_t v; };
struct TaskVal { std::optional<std::uint32_t> task; };
struct ArrayVal { std::size_t storage; };
using Value = std::variant<IntVal, TaskVal, ArrayVal>;

class Interpreter {
public:
  Interpreter(const TripCounts& trips, const InterpretLimits& limits) : trips_(trips), limits_(limits) {}

  DynamicGraph run(const Program& p) {
    for (const Function& f : p.functions) {
      env_.clear();
      fn_ = f.name;
      for (const std::string& param : f.params) {
        auto it = trips_.find(param);
        if (it == trips_.end())
          fail("no value given for trip count '" + param + "' (use --trip " + param + "=VALUE)");
        env_[param] = IntVal{it->second};
      }
      block(f.body);
    }
    return std::move(graph_);
  }

private:
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError(kFile, 0, "function '" + fn_ + "': " + msg);
  }
  std::int64_t int_of(const IntAtom& a) {
    if (const auto* v = std::get_if<std::int64_t>(&a)) return *v;
    return std::get<IntVal>(env_.at(std::get<std::string>(a))).v;
  }

  /// The tasks named by one dep: a TaskId's task, or an array's filled slots.
  void add_deps(const std::string& name, std::set<std::uint32_t>& deps) {
    const Value& v = env_.at(name);
    if (const auto* t = std::get_if<TaskVal>(&v)) {
      if (t->task) deps.insert(*t->task);
    } else if (const auto* a = std::get_if<ArrayVal>(&v)) {
      for (const auto& slot : storage_[a->storage])
        if (slot) deps.insert(*slot);
    }
  }
  std::uint32_t new_task(std::string label, bool dummy, const std::set<std::uint32_t>& deps) {
    if (graph_.tasks.size() >= limits_.max_tasks)
      fail("more than " + std::to_string(limits_.max_tasks) + " tasks submitted");
    graph_.tasks.push_back(DynTask{std::move(label), dummy, std::vector<std::uint32_t>(deps.begin(), deps.end())});
    return static_cast<std::uint32_t>(graph_.tasks.size() - 1);
  }
  std::size_t checked_index(const std::string& array, std::int64_t index) {
    std::size_t s = std::get<ArrayVal>(env_.at(array)).storage;
    if (index < 0 || static_cast<std::uint64_t>(index) >= storage_[s].size())
      fail("index " + std::to_string(index) + " out of range for '" + array + "' of length " +
           std::to_string(storage_[s].size()));
    return s;
  }

  void step() {
    if (++steps_ > limits_.max_steps) fail("more than " + std::to_string(limits_.max_steps) + " steps run");
  }
  void block(const Block& b) {
    for (const Stmt& s : b) {
      step();
      std::visit([&](const auto& n) { exec(n); }, s.node);
    }
  }

  void exec(const ArrayCreate& n) {
    std::int64_t len = int_of(n.length);
    if (len < 0 || len > limits_.max_array_length)
      fail("array length " + std::to_string(len) + " of '" + n.result + "' is out of range");
    storage_.emplace_back(static_cast<std::size_t>(len));
    env_[n.result] = ArrayVal{storage_.size() - 1};
  }
  void exec(const ArrayUpdate& n) {
    std::int64_t i = int_of(n.index);
    std::size_t s = checked_index(n.array, i);
    storage_[s][static_cast<std::size_t>(i)] = std::get<TaskVal>(env_.at(n.task)).task;
    env_[n.result] = ArrayVal{s};
  }
  void exec(const ArrayGet& n) {
    std::int64_t i = int_of(n.index);
    std::size_t s = checked_index(n.array, i);
    env_[n.result] = TaskVal{storage_[s][static_cast<std::size_t>(i)]};
  }
  void exec(const Copy& n) { env_[n.result] = env_.at(n.source); }
  void exec(const Submit& n) {
    std::set<std::uint32_t> deps;
    for (const std::string& d : n.deps) add_deps(d, deps);
    std::string label = n.kernel + "(";
    for (std::size_t i = 0; i < n.args.size(); ++i) {
      if (i) label += ",";
      if (const auto* lit = std::get_if<std::int64_t>(&n.args[i])) {
        label += std::to_string(*lit);
      } else {
        const std::string& name = std::get<std::string>(n.args[i]);
        const Value& v = env_.at(name);
        label += std::holds_alternative<IntVal>(v) ? std::to_string(std::get<IntVal>(v).v) : name;
      }
    }
    std::uint32_t t = new_task(label + ")", false, deps);
    if (!n.result.empty()) env_[n.result] = TaskVal{t};
  }
  void exec(const TaskDummy& n) {
    std::set<std::uint32_t> deps;
    if (const AttrValue* edges = find_attr(n.attrs, kAttrManualDepEdges))
      for (const std::string& d : edges->names) add_deps(d, deps);
    env_[n.result] = TaskVal{new_task("task_dummy", true, deps)};
  }
  void exec(const Loop& n) {
    std::int64_t trip = int_of(n.trip);
    if (trip < 0) fail("loop over '" + n.var + "' has negative trip count " + std::to_string(trip));
    std::vector<Value> args;
    for (const IterArg& a : n.iter_args) {
      if (a.init_length) { // `a = array(n)`: new storage, once, before the first iteration
        std::int64_t len = int_of(*a.init_length);
        if (len < 0 || len > limits_.max_array_length)
          fail("array length " + std::to_string(len) + " of '" + a.name + "' is out of range");
        storage_.emplace_back(static_cast<std::size_t>(len));
        args.push_back(ArrayVal{storage_.size() - 1});
      } else {
        args.push_back(env_.at(a.init));
      }
    }
    for (std::int64_t i = 0; i < trip; ++i) {
      step();
      env_[n.var] = IntVal{i};
      for (std::size_t k = 0; k < args.size(); ++k) env_[n.iter_args[k].name] = args[k];
      block(n.body);
      for (std::size_t k = 0; k < args.size(); ++k) args[k] = env_.at(n.yields[k]);
    }
    for (std::size_t k = 0; k < n.results.size(); ++k) env_[n.results[k]] = args[k];
  }
  void exec(const If& n) {
    std::int64_t a = int_of(n.cond.lhs), b = int_of(n.cond.rhs);
    bool taken = false;
    switch (n.cond.op) {
    case CmpOp::Eq: taken = a == b; break;
    case CmpOp::Ne: taken = a != b; break;
    case CmpOp::Lt: taken = a < b; break;
    case CmpOp::Le: taken = a <= b; break;
    case CmpOp::Gt: taken = a > b; break;
    case CmpOp::Ge: taken = a >= b; break;
    }
    const Block& body = taken ? n.then_body : n.else_body;
    const std::vector<std::string>& yields = taken ? n.then_yields : n.else_yields;
    block(body);
    std::vector<Value> out;
    for (const std::string& y : yields) out.push_back(env_.at(y));
    for (std::size_t k = 0; k < out.size(); ++k) env_[n.results[k]] = out[k];
  }
  void exec(const Scope& n) { block(n.body); }

  const TripCounts& trips_;
  const InterpretLimits& limits_;
  std::string fn_;
  std::size_t steps_ = 0;
  std::map<std::string, Value> env_;
  std::vector<std::vector<std::optional<std::uint32_t>>> storage_;
  DynamicGraph graph_;
};

} // namespace

DynamicGraph interpret(const Program& program, const TripCounts& trips, const InterpretLimits& limits) {
  check_program(program, kFile);
  return Interpreter(trips, limits).run(program);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> real_happens_before(const DynamicGraph& g) {
  using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const std::size_t n = g.tasks.size();
  BGraph bg(n);
  for (std::size_t c = 0; c < n; ++c)
    for (std::uint32_t p : g.tasks[c].deps) boost::add_edge(p, c, bg);

  std::vector<std::uint32_t> ordinal(n, 0);
  std::uint32_t next = 0;
  for (std::size_t v = 0; v < n; ++v)
    if (!g.tasks[v].dummy) ordinal[v] = next++;

  std::vector<std::pair<std::uint32_t, std::uint32_t>> hb;
  for (std::size_t src = 0; src < n; ++src) {
    if (g.tasks[src].dummy) continue;
    std::vector<boost::default_color_type> color(n, boost::white_color);
    auto color_map = boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, bg));
    boost::breadth_first_visit(bg, boost::vertex(src, bg), boost::visitor(boost::default_bfs_visitor()).color_map(color_map));
    for (std::size_t dst = 0; dst < n; ++dst)
      if (dst != src && color[dst] != boost::white_color && !g.tasks[dst].dummy)
        hb.emplace_back(ordinal[src], ordinal[dst]);
  }
  std::sort(hb.begin(), hb.end());
  return hb;
}

FenceComparison compare_fence(const Program& before, const Program& after, const TripCounts& trips,
                              const InterpretLimits& limits) {
  DynamicGraph a = interpret(before, trips, limits);
  DynamicGraph b = interpret(after, trips, limits);
  FenceComparison r;
  r.edges_before = a.edge_count();
  r.edges_after = b.edge_count();
  r.dummies_before = a.tasks.size() - a.real_task_count();
  r.dummies_after = b.tasks.size() - b.real_task_count();
  std::vector<std::string> ra, rb;
  for (const DynTask& t : a.tasks)
    if (!t.dummy) ra.push_back(t.label);
  for (const DynTask& t : b.tasks)
    if (!t.dummy) rb.push_back(t.label);
  if (ra != rb) {
    std::size_t i = 0;
    while (i < ra.size() && i < rb.size() && ra[i] == rb[i]) ++i;
    r.mismatch = "real tasks differ at ordinal " + std::to_string(i) + ": " +
                 (i < ra.size() ? ra[i] : std::string("<none>")) + " vs " + (i < rb.size() ? rb[i] : std::string("<none>"));
    return r;
  }
  auto ha = real_happens_before(a);
  auto hb = real_happens_before(b);
  if (ha != hb) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lost, gained;
    std::set_difference(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(lost));
    std::set_difference(hb.begin(), hb.end(), ha.begin(), ha.end(), std::back_inserter(gained));
    auto show = [&](const std::pair<std::uint32_t, std::uint32_t>& e) {
      return ra[e.first] + " -> " + ra[e.second];
    };
    r.mismatch = std::to_string(lost.size()) + " ordering(s) lost, " + std::to_string(gained.size()) + " gained";
    if (!lost.empty()) r.mismatch += "; first lost: " + show(lost[0]);
    if (!gained.empty()) r.mismatch += "; first gained: " + show(gained[0]);
    return r;
  }
  r.equivalent = true;
  return r;
}

} // namespace depreduce::reference
