//===- proofs/sym.cpp - Path explorer behind the symbolic words -----------===//
///
/// \file
/// Depth-first symbolic execution: a run follows the decisions recorded in
/// the trail, then takes the first feasible side of every new decision;
/// backtracking flips the deepest decision whose other side is feasible and
/// not yet run. Replayed decisions are not re-checked (they were feasible).
//===----------------------------------------------------------------------===//
#include "sym.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace depreduce::proofs {

z3::context& ctx() {
  static z3::context c;
  return c;
}

namespace {
explorer* g_current = nullptr;
} // namespace

explorer& current() {
  if (!g_current) throw z3::exception("symbolic word used outside an explorer");
  return *g_current;
}

scoped_explorer::scoped_explorer(explorer& e) : prev_(g_current) { g_current = &e; }
scoped_explorer::~scoped_explorer() { g_current = prev_; }

namespace sym_detail {
z3::expr resize(const z3::expr& x, unsigned to) {
  const unsigned from = x.get_sort().bv_size();
  if (from == to) return x;
  if (from < to) return z3::zext(x, to - from);
  return x.extract(to - 1, 0);
}
} // namespace sym_detail

explorer::explorer(std::size_t max_paths) : max_paths_(max_paths), solver_(ctx()) {
  z3::params p(ctx());
  p.set("timeout", 120000u); // ms per query: "unknown" is an error, never a proof
  solver_.set(p);
}

void explorer::start_run() {
  solver_.reset();
  pos_ = 0;
  inputs_.clear();
}

bool explorer::backtrack() {
  while (!trail_.empty() && !trail_.back().open) trail_.pop_back();
  if (trail_.empty()) return false;
  trail_.back().taken = !trail_.back().taken;
  trail_.back().open = false;
  return true;
}

bool explorer::feasible(const z3::expr& extra) {
  ++queries_;
  solver_.push();
  solver_.add(extra);
  const auto t0 = std::chrono::steady_clock::now();
  const z3::check_result r = solver_.check();
  if (std::getenv("DEPREDUCE_PROOFS_TRACE"))
    std::fprintf(stderr, "feasible %.3f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  solver_.pop();
  if (r == z3::unknown) throw z3::exception("solver returned unknown");
  return r == z3::sat;
}

void explorer::assume(const z3::expr& c) { solver_.add(c); }
void explorer::assume_scoped(const z3::expr& c) {
  solver_.push();
  solver_.add(c);
}
void explorer::drop_assumption() { solver_.pop(); }

bool explorer::branch(const z3::expr& c) {
  if (pos_ < trail_.size()) { // replay
    const entry& e = trail_[pos_++];
    solver_.add(e.taken ? e.cond : !e.cond);
    return e.taken;
  }
  const z3::expr s = c.simplify();
  if (s.is_true()) return true;
  if (s.is_false()) return false;
  // The path is feasible, so if one side is not, the other is (one query saved).
  const bool t = feasible(c), f = !t || feasible(!c);
  trail_.push_back({c, t, t && f, false, 0});
  ++pos_;
  solver_.add(t ? c : !c);
  return t;
}

std::uint64_t explorer::value(const z3::expr& x) {
  const z3::expr s = x.simplify();
  std::uint64_t v = 0;
  if (s.is_numeral_u64(v)) return v;
  for (unsigned tries = 0;; ++tries) {
    if (tries > 4096) throw z3::exception("concretisation with more than 4096 values");
    if (pos_ < trail_.size()) { // replay
      const entry& e = trail_[pos_++];
      solver_.add(e.taken ? e.cond : !e.cond);
      if (e.taken) return e.v;
      continue;
    }
    ++queries_;
    if (solver_.check() != z3::sat) throw z3::exception("infeasible path reached");
    v = solver_.get_model().eval(x, true).get_numeral_uint64();
    const z3::expr eq = x == ctx().bv_val(v, x.get_sort().bv_size());
    const bool other = feasible(!eq);
    trail_.push_back({eq, true, other, true, v});
    ++pos_;
    solver_.add(eq);
    return v;
  }
}

void explorer::require(const z3::expr& c, const std::string& what) {
  if (failure_) return;
  const z3::expr s = c.simplify();
  if (s.is_true()) return;
  ++queries_;
  solver_.push();
  solver_.add(!c);
  if (solver_.check() == z3::sat) {
    const z3::model m = solver_.get_model();
    solver_.pop();
    fail("side condition violated: " + what, m);
    return;
  }
  solver_.pop();
}

void explorer::check(const z3::expr& claim, const std::string& what) {
  if (failure_) return;
  ++queries_;
  // A fresh, non-incremental solver for the logic: Z3 then bit-blasts with
  // its QF_BV tactics instead of the incremental core the path uses, which is
  // many times faster on the claims (wide words, symbolic keys).
  z3::solver s(ctx(), "QF_UFBV");
  z3::params p(ctx());
  p.set("timeout", 120000u);
  s.set(p);
  for (const z3::expr& a : solver_.assertions()) s.add(a);
  s.add(!claim);
  const auto t0 = std::chrono::steady_clock::now();
  const z3::check_result r = s.check();
  if (std::getenv("DEPREDUCE_PROOFS_TRACE"))
    std::fprintf(stderr, "check %.3f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (r == z3::unknown) throw z3::exception("solver returned unknown");
  if (r == z3::sat) fail(what, s.get_model());
}

void explorer::fail(const std::string& what, const std::optional<z3::model>& m) {
  std::ostringstream out;
  out << what;
  if (m) {
    out << ":";
    for (const input& in : inputs_) out << " " << in.name << "=" << show_value(m->eval(in.value, true));
  }
  failure_ = out.str();
}

std::string show_value(const z3::expr& v) {
  if (v.is_bool()) return v.is_true() ? "true" : "false";
  std::uint64_t u = 0;
  if (v.is_numeral_u64(u)) {
    char buf[64];
    if (u < 1024) std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(u));
    else std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(u));
    return buf;
  }
  // Wide words: hex of the numeral.
  std::string dec = v.get_decimal_string(0);
  return "#" + dec;
}

} // namespace depreduce::proofs
