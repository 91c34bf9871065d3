//===- formats/src/dot/interner.hpp - The DOT reader's string pool --------===//
///
/// \file
/// The strings of the DOT reader (formats/src/dot_reader.cpp): one hash for
/// every text (hash_bytes()), and the Interner, which gives every distinct
/// name and value a dense id (0 is ""), keeps each text once (a view into
/// the input when no escape changed it, else a copy in its arena) and
/// records per id what cgraph's string pool decides once per text: whether
/// it is an HTML string, and which node it names. FlatMap64 maps the 64-bit
/// keys the parser builds from ids (node pairs, memberships) to 32-bit
/// values. Hands on: ids, which every later stage uses in place of text.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_DOT_INTERNER_HPP
#define DEPREDUCE_FORMATS_DOT_INTERNER_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace depreduce::formats {
// Hidden: the stages call each other across files, never from outside the
// library; so, in a position-independent build, calls within a file may be
// inlined (none can be interposed).
namespace [[gnu::visibility("hidden")]] dot {

/// No id, node, symbol or snapshot.
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// ---------------------------------------------------------------- strings

[[gnu::always_inline]] inline std::uint64_t hash_bytes(const char* p, std::size_t n) noexcept {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  // The last 0..7 bytes without a variable-length copy.
  std::uint64_t w = 0;
  if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    w = (std::uint64_t{hi} << 32) | lo;
  } else if (n) {
    w = static_cast<std::uint64_t>(static_cast<unsigned char>(p[0])) |
        static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8 |
        static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
  }
  h = (h ^ w) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

/// True if the \p n bytes at \p a and \p b are equal; short texts (the usual
/// node names) without a call.
inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  if (n >= 8 && n <= 16) {
    std::uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4 && n < 8) {
    std::uint32_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 4);
    std::memcpy(&b0, b, 4);
    std::memcpy(&a1, a + n - 4, 4);
    std::memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  return std::memcmp(a, b, n) == 0;
}

/// Asks for the cache line at \p p (a hint: never faults). GCC 12 drops a
/// __builtin_prefetch of these addresses (measured: none was left in the
/// object), so on x86 it is the instruction itself.
inline void prefetch_line(const void* p) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

/// Interned strings: ids are dense, 0 is "". Texts are views into the input
/// or into an arena owned here. append() adds a text without interning it
/// (an attribute value that nothing looks up, FastDotReader::simple_stmt()).
class Interner {
public:
  struct Entry {
    const char* p;
    std::uint32_t len;
    std::uint32_t hash;
    std::int8_t html = -1;           ///< -1 not seen in the graph yet, 0 plain, 1 HTML.
    bool tabled = true;              ///< In the table (interned); false: append()ed.
    std::uint32_t node = kNone;      ///< The node of that name.
  };

  Interner() {
    // Small: a batch reads hundreds of graphs of a few names each, and a
    // large text gets its table from reserve_table() before it is filled.
    table_.assign(kMinSlots, kFree);
    intern(std::string_view("", 0), false);
    entries_[0].html = 0;
  }

  /// The id of \p s; \p copy when \p s does not outlive the reader.
  std::uint32_t intern(std::string_view s, bool copy) { return intern_hashed(s, hash_bytes(s.data(), s.size()), copy); }
  /// intern() with \p h = hash_bytes(s) computed already (FastDotReader::top_up()).
  std::uint32_t intern_hashed(std::string_view s, std::uint64_t h, bool copy) {
    if (s.empty()) s = std::string_view(kEmpty, 0); // never a null pointer
    const std::uint32_t h32 = static_cast<std::uint32_t>(h >> 32);
    // Generated graphs name recent nodes again soon: a small direct-mapped
    // cache of (tag, id) in front of the table, whose entries are then
    // recent too, saves the table's cache miss.
    Recent& r = recent_[(h >> 17) & (recent_.size() - 1)];
    if (r.tag == h32 && r.id != kNoId) {
      const Entry& e = entries_[r.id];
      if (e.len == s.size() && same_bytes(e.p, s.data(), s.size())) return r.id;
    }
    const std::uint32_t id = lookup(s, h, h32, copy);
    r = Recent{h32, id};
    return id;
  }

private:
  std::uint32_t lookup(std::string_view s, std::uint64_t h, std::uint32_t h32, bool copy) {
    std::size_t mask = table_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
      const std::uint64_t slot = table_[i];
      if (slot == kFree) break;
      if (static_cast<std::uint32_t>(slot >> 32) != h32) continue; // the tag saves a look at the entry
      const std::uint32_t id = static_cast<std::uint32_t>(slot);
      const Entry& e = entries_[id];
      if (e.len == s.size() && same_bytes(e.p, s.data(), s.size())) return id;
    }
    if (s.size() > 0xFFFFFFF0u) throw std::length_error("string too long");
    const char* p = copy ? store(s) : s.data();
    const std::uint32_t id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back(Entry{p, static_cast<std::uint32_t>(s.size()), h32});
    if (++tabled_ * 2 > table_.size()) grow();
    else place(id, h);
    return id;
  }

public:
  /// A new id for \p s (\p copy when \p s does not outlive the reader),
  /// plain text, not in the table: intern() never returns it. "" is 0.
  std::uint32_t append(std::string_view s, bool copy) {
    if (s.empty()) return 0;
    if (s.size() > 0xFFFFFFF0u) throw std::length_error("string too long");
    const std::uint32_t id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back(Entry{copy ? store(s) : s.data(), static_cast<std::uint32_t>(s.size()), 0});
    entries_.back().html = 0;
    entries_.back().tabled = false;
    return id;
  }

  /// True if \p a and \p b are the same text with the same HTML-ness
  /// (the same id, for interned texts).
  bool same(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    return x.len == y.len && x.html == y.html && same_bytes(x.p, y.p, x.len);
  }

  /// Room for about \p n strings; the recent-name cache grows with them (up
  /// to kRecent entries), so a small graph does not fault in 256 KiB.
  void reserve(std::size_t n) {
    entries_.reserve(n);
    std::size_t r = kRecentMin;
    while (r < kRecent && r < n) r *= 2;
    if (r > recent_.size()) recent_.assign(r, Recent{0, kNoId});
  }
  /// Room in the table for about \p n strings, so that it need not grow
  /// (rehashing what it holds) while it is filled: allocated now. O(slots).
  void reserve_table(std::size_t n) {
    std::size_t slots = table_.size();
    while (slots < 2 * n) slots *= 2;
    if (slots != table_.size()) rebuild(slots);
  }
  /// The table's size (a power of 2; it doubles at half full).
  std::size_t table_slots() const { return table_.size(); }
  /// Asks the cache for where intern_hashed(s, \p h) will look first.
  void prefetch(std::uint64_t h) const {
    prefetch_line(&recent_[(h >> 17) & (recent_.size() - 1)]);
    prefetch_line(&table_[static_cast<std::size_t>(h) & (table_.size() - 1)]);
  }
  /// The later stages of prefetch(\p h), once its lines have arrived: asks
  /// the cache for the entry that intern_hashed(s, \p h) will compare first
  /// (the recent-name cache's, else the one in the table's first slot), or
  /// with \p text for that entry's text, once the entry has arrived too.
  /// Only a hint: nothing is changed, and a text that is not there is not
  /// looked for further. O(1).
  void prefetch_entry(std::uint64_t h, bool text) const {
    const std::uint32_t h32 = static_cast<std::uint32_t>(h >> 32);
    std::uint32_t id = kNoId;
    const Recent& r = recent_[(h >> 17) & (recent_.size() - 1)];
    if (r.tag == h32) {
      id = r.id;
    } else {
      const std::uint64_t slot = table_[static_cast<std::size_t>(h) & (table_.size() - 1)];
      if (slot != kFree && static_cast<std::uint32_t>(slot >> 32) == h32) id = static_cast<std::uint32_t>(slot);
    }
    if (id >= entries_.size()) return;
    if (text) prefetch_line(entries_[id].p);
    else prefetch_line(&entries_[id]);
  }
  std::string_view view(std::uint32_t id) const { return {entries_[id].p, entries_[id].len}; }
  Entry& operator[](std::uint32_t id) { return entries_[id]; }
  const Entry& operator[](std::uint32_t id) const { return entries_[id]; }
  std::size_t size() const { return entries_.size(); }

private:
  void place(std::uint32_t id, std::uint64_t h) {
    std::size_t mask = table_.size() - 1;
    std::size_t i = static_cast<std::size_t>(h) & mask;
    while (table_[i] != kFree) i = (i + 1) & mask;
    table_[i] = (std::uint64_t{static_cast<std::uint32_t>(h >> 32)} << 32) | id;
  }
  void grow() { rebuild(table_.size() * 2); }
  void rebuild(std::size_t slots) {
    table_.assign(slots, kFree);
    for (std::uint32_t id = 0; id < entries_.size(); ++id)
      if (entries_[id].tabled) place(id, hash_bytes(entries_[id].p, entries_[id].len));
  }
  const char* store(std::string_view s) {
    if (s.size() > kChunk / 4) {
      big_.emplace_back(new char[s.size() + 1]);
      std::memcpy(big_.back().get(), s.data(), s.size());
      return big_.back().get();
    }
    if (chunks_.empty() || used_ + s.size() > kChunk) {
      chunks_.emplace_back(new char[kChunk]);
      used_ = 0;
    }
    char* p = chunks_.back().get() + used_;
    std::memcpy(p, s.data(), s.size());
    used_ += s.size();
    return p;
  }
  struct Recent {
    std::uint32_t tag, id;
  };
  static constexpr std::size_t kRecent = 1 << 15, kRecentMin = 1 << 8; // powers of 2
  static constexpr std::uint32_t kNoId = 0xFFFFFFFFu;
  std::vector<Recent> recent_ = std::vector<Recent>(kRecentMin, Recent{0, kNoId});
  static constexpr std::size_t kMinSlots = 64; // a power of 2
  static constexpr std::size_t kChunk = 1 << 16;
  static constexpr const char* kEmpty = "";
  static constexpr std::uint64_t kFree = ~0ull;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> table_; ///< (hash tag << 32) | id, or kFree.
  std::vector<std::unique_ptr<char[]>> chunks_, big_;
  std::size_t used_ = 0;
  std::size_t tabled_ = 0;
};

/// Open-addressing map from 64-bit keys to 32-bit values (no erase).
class FlatMap64 {
public:
  FlatMap64() { keys_.assign(16, kEmpty); vals_.assign(16, 0); }
  std::uint32_t* find(std::uint64_t k) {
    std::size_t mask = keys_.size() - 1;
    for (std::size_t i = mix(k) & mask;; i = (i + 1) & mask) {
      if (keys_[i] == k) return &vals_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  void insert(std::uint64_t k, std::uint32_t v) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    std::size_t mask = keys_.size() - 1;
    std::size_t i = mix(k) & mask;
    while (keys_[i] != kEmpty && keys_[i] != k) i = (i + 1) & mask;
    if (keys_[i] == kEmpty) ++size_;
    keys_[i] = k;
    vals_[i] = v;
  }

private:
  static constexpr std::uint64_t kEmpty = ~0ull;
  static std::size_t mix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return static_cast<std::size_t>(k);
  }
  void grow() {
    std::vector<std::uint64_t> ok = std::move(keys_);
    std::vector<std::uint32_t> ov = std::move(vals_);
    keys_.assign(ok.size() * 2, kEmpty);
    vals_.assign(ok.size() * 2, 0);
    size_ = 0;
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (ok[i] != kEmpty) insert(ok[i], ov[i]);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> vals_;
  std::size_t size_ = 0;
};

inline std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }


} // namespace dot
} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DOT_INTERNER_HPP
