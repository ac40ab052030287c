// Selection tree XML (config/selection_trees, core/bst). The input is one or more files:
// "\n<!--FILE-->\n" separates them (so blocks and refs across files are reached). When the
// set loads, an agent runs each tree through a few signals and evaluations.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bst/selection_tree_library.h"

namespace {

constexpr std::string_view kFileSeparator = "\n<!--FILE-->\n";

std::vector<npc::BstSourceFile> splitFiles(std::string_view text) {
  std::vector<npc::BstSourceFile> files;
  for (size_t start = 0; files.size() < 8;) {
    const size_t end = text.find(kFileSeparator, start);
    files.push_back({"trees/f" + std::to_string(files.size()) + ".xml",
                     std::string(text.substr(start, end - start))});
    if (end == std::string_view::npos) break;
    start = end + kFileSeparator.size();
  }
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  npc::SignalNames signals;
  npc::SelectionTreeLibrary library(signals);
  const npc::BstLoadReport report = library.loadSources(splitFiles(text));
  if (!report.ok()) return 0;
  for (size_t t = 0; t < library.treeCount(); ++t) {
    npc::BstAgentState agent;
    library.bind(agent, static_cast<npc::SelectionTreeId>(t));
    library.evaluate(agent);
    // Every signal any tree named (standard ones first), each followed by an evaluation.
    for (size_t s = 0; s < signals.size() && s < 64; ++s) {
      library.applySignal(agent, static_cast<npc::SignalId>(s));
      library.evaluate(agent);
    }
  }
  return 0;
}
