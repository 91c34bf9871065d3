//===- formats/src/dax_reader.cpp - Pegasus DAX XML -----------------------===//
///
/// \file
/// `<adag>` with `<job id=...>` children (also `<dax>`/`<dag>` sub-workflow
/// jobs) and `<child ref=...><parent ref=.../></child>` dependencies. Edges
/// come only from child/parent elements, never from `<uses>` file links.
//===----------------------------------------------------------------------===//
#include <pugixml.hpp>

#include <cstring>
#include <string>
#include <unordered_map>

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

using detail::show;

/// Element name without a namespace prefix ("dax:job" -> "job").
std::string_view local_name(const pugi::xml_node& n) {
  std::string_view s = n.name();
  if (std::size_t c = s.rfind(':'); c != std::string_view::npos) s.remove_prefix(c + 1);
  return s;
}

} // namespace

InputGraph read_dax(std::string_view text, const std::string& file) {
  detail::LineMap lines(text);
  auto line_of = [&](const pugi::xml_node& n) -> std::uint32_t {
    std::ptrdiff_t off = n.offset_debug();
    return off < 0 ? 0 : lines.line_of(static_cast<std::size_t>(off));
  };

  pugi::xml_document doc;
  pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_auto);
  if (!r) {
    std::size_t off = r.offset < 0 ? 0 : static_cast<std::size_t>(r.offset);
    throw InputError(file, lines.line_of(std::min(off, text.size())),
                     std::string("XML parse error: ") + r.description());
  }
  pugi::xml_node root = doc.document_element();
  if (!root || local_name(root) != "adag")
    throw InputError(file, root ? line_of(root) : 1,
                     "expected a Pegasus DAX document (root element <adag>), found <" +
                         std::string(root ? root.name() : "") + ">");

  InputGraph g;
  g.file = file;
  if (const char* name = root.attribute("name").value(); name && *name) g.name = name;
  std::unordered_map<std::string, NodeId> index;
  for (pugi::xml_node job : root.children()) {
    if (job.type() != pugi::node_element) continue;
    std::string_view kind = local_name(job);
    if (kind != "job" && kind != "dax" && kind != "dag") continue;
    Node node;
    node.line = line_of(job);
    pugi::xml_attribute id = job.attribute("id");
    if (!id) throw InputError(file, node.line, "<" + std::string(kind) + "> without an 'id' attribute");
    node.name = id.value();
    node.input_index = static_cast<std::uint32_t>(g.nodes.size());
    for (const char* key : {"name", "namespace", "runtime"})
      if (pugi::xml_attribute a = job.attribute(key)) node.attrs.emplace_back(key, a.value());
    if (!index.emplace(node.name, node.input_index).second)
      throw InputError(file, node.line, "duplicate job id " + show(node.name));
    g.nodes.push_back(std::move(node));
  }
  for (pugi::xml_node child : root.children()) {
    if (child.type() != pugi::node_element || local_name(child) != "child") continue;
    std::uint32_t cline = line_of(child);
    pugi::xml_attribute cref = child.attribute("ref");
    if (!cref) throw InputError(file, cline, "<child> without a 'ref' attribute");
    auto c = index.find(cref.value());
    if (c == index.end()) throw InputError(file, cline, "<child ref=" + show(cref.value()) + "> names no job");
    for (pugi::xml_node parent : child.children()) {
      if (parent.type() != pugi::node_element || local_name(parent) != "parent") continue;
      std::uint32_t pline = line_of(parent);
      pugi::xml_attribute pref = parent.attribute("ref");
      if (!pref) throw InputError(file, pline, "<parent> without a 'ref' attribute");
      auto p = index.find(pref.value());
      if (p == index.end()) throw InputError(file, pline, "<parent ref=" + show(pref.value()) + "> names no job");
      Edge e;
      e.src = p->second;
      e.dst = c->second;
      e.line = pline;
      e.input_index = static_cast<std::uint32_t>(g.edges.size());
      g.edges.push_back(std::move(e));
    }
  }
  return g;
}

} // namespace depreduce::formats
