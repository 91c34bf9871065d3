//===- depreduce/kinds.hpp - Edge kinds and flags --------------*- C++ -*-===//
///
/// \file
/// Edge kinds (FLOW = RAW, ANTI = WAR, OUTPUT = WAW, ORDERED) and edge flags
/// (WAIT = ordering/readiness, RETAIN = lifetime) as small bit sets (SPEC §2).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_KINDS_HPP
#define DEPREDUCE_KINDS_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace depreduce {

/// One dependence kind.
enum class Kind : std::uint8_t {
  Flow = 1,    ///< RAW: p writes, c reads.
  Anti = 2,    ///< WAR: p reads, c writes.
  Output = 4,  ///< WAW: both write.
  Ordered = 8, ///< Pure ordering: issue order only (an S edge when alone).
};

/// A set of Kind. Empty = unlabelled.
class KindSet {
public:
  constexpr KindSet() = default;
  constexpr KindSet(Kind k) : bits_(static_cast<std::uint8_t>(k)) {} // NOLINT: implicit by design
  static constexpr KindSet from_bits(std::uint8_t b) { KindSet s; s.bits_ = b & 15u; return s; }
  static constexpr KindSet all() { return from_bits(15); }
  static constexpr KindSet data() { return from_bits(7); } ///< FLOW|ANTI|OUTPUT.
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool has(Kind k) const { return (bits_ & static_cast<std::uint8_t>(k)) != 0; }
  constexpr bool intersects(KindSet o) const { return (bits_ & o.bits_) != 0; }
  constexpr KindSet operator|(KindSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr KindSet operator&(KindSet o) const { return from_bits(bits_ & o.bits_); }
  constexpr KindSet& operator|=(KindSet o) { bits_ |= o.bits_; return *this; }
  friend constexpr bool operator==(KindSet, KindSet) = default;
private:
  std::uint8_t bits_ = 0;
};

/// One edge flag.
enum class Flag : std::uint8_t {
  Wait = 1,   ///< Orders: the consumer waits for the producer.
  Retain = 2, ///< Keeps the producer's output alive; orders nothing.
};

/// A set of Flag.
class FlagSet {
public:
  constexpr FlagSet() = default;
  constexpr FlagSet(Flag f) : bits_(static_cast<std::uint8_t>(f)) {} // NOLINT: implicit by design
  static constexpr FlagSet from_bits(std::uint8_t b) { FlagSet s; s.bits_ = b & 3u; return s; }
  static constexpr FlagSet wait() { return FlagSet(Flag::Wait); }
  static constexpr FlagSet retain() { return FlagSet(Flag::Retain); }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool has(Flag f) const { return (bits_ & static_cast<std::uint8_t>(f)) != 0; }
  constexpr FlagSet operator|(FlagSet o) const { return from_bits(bits_ | o.bits_); }
  constexpr FlagSet& operator|=(FlagSet o) { bits_ |= o.bits_; return *this; }
  constexpr FlagSet without(Flag f) const { return from_bits(bits_ & ~static_cast<std::uint8_t>(f)); }
  friend constexpr bool operator==(FlagSet, FlagSet) = default;
private:
  std::uint8_t bits_ = 0;
};

/// "flow|anti" style text, lower case, in the order FLOW, ANTI, OUTPUT, ORDERED;
/// "" for the empty set.
std::string to_string(KindSet kinds);
/// "wait|retain" style text; "" for the empty set.
std::string to_string(FlagSet flags);

/// Parses a '|' or ',' separated list of kind names (flow, anti, output,
/// ordered; also raw, war, waw; case-insensitive). std::nullopt on an unknown name.
std::optional<KindSet> parse_kinds(std::string_view text);
/// Parses a '|' or ',' separated list of flags (wait, retain). std::nullopt on error.
std::optional<FlagSet> parse_flags(std::string_view text);

} // namespace depreduce

#endif // DEPREDUCE_KINDS_HPP
