#include "sim/definition_set.h"

#include <algorithm>
#include <utility>

#include "base/source_dir.h"
#include "agent/archetype.h"
#include "hibernation/long_action.h"
#include "sim/simulation.h"

namespace npc {

namespace {

void appendAll(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

std::string joinLines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::string out;
  for (const auto* lines : {&a, &b}) {
    for (const std::string& line : *lines) out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

// A directory that cannot be read whole is refused as a kind: a partial set must not
// replace a whole one.
bool readAll(const std::string& dir, const char* extension, SourceDirDepth depth,
             const char* kind, DefinitionReport& report, SourceDirRead& read) {
  read = readSourceDir(dir, extension, depth);
  if (read.errors.empty()) return true;
  appendAll(report.errors, read.errors);
  report.refused.push_back(kind);
  return false;
}

}  // namespace

std::string nameList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

std::string DefinitionReport::text() const { return joinLines(errors, warnings); }

std::string DefinitionReport::summary() const {
  std::string out;
  for (const std::string& line : loaded) out += (out.empty() ? "" : "; ") + line;
  for (const std::string& kind : refused) {
    out += (out.empty() ? "" : "; ") + kind + " refused";
  }
  return out;
}

void DefinitionReport::append(const DefinitionReport& other) {
  appendAll(errors, other.errors);
  appendAll(warnings, other.warnings);
  appendAll(loaded, other.loaded);
  appendAll(refused, other.refused);
  behavior_trees = std::max(behavior_trees, other.behavior_trees);
  planner_domains = std::max(planner_domains, other.planner_domains);
  selection_trees = std::max(selection_trees, other.selection_trees);
}

void DefinitionReport::outcome(const std::string& kind, bool installed, const std::string& what) {
  if (installed) {
    loaded.push_back(kind + ": " + what);
  } else {
    refused.push_back(kind);
  }
}

bool DefinitionSet::due(const std::string& dir, const char* extension, bool recursive,
                        DefinitionLoad how, Watched& watched) const {
  if (dir.empty()) return false;
  // The fingerprint is taken before reading: an edit made while reading shows at the
  // next poll. A refused set is not read again until its files change.
  std::string now = sourceDirFingerprint(
      dir, extension, recursive ? SourceDirDepth::kRecursive : SourceDirDepth::kTopLevel);
  if (how == DefinitionLoad::kChanged && now == watched.fingerprint) return false;
  watched.fingerprint = std::move(now);
  return true;
}

bool DefinitionSet::fileDue(const std::string& file, DefinitionLoad how, Watched& watched) const {
  if (file.empty()) return false;
  std::string now = sourceFileFingerprint(file);
  if (how == DefinitionLoad::kChanged && now == watched.fingerprint) return false;
  watched.fingerprint = std::move(now);
  return true;
}

void DefinitionSet::loadLongActions(Simulation& sim, DefinitionReport& report) const {
  LongActionLibrary fresh;
  fresh.items() = sim.longActions().items();  // agents' items keep their numbers
  std::vector<std::string> errors;
  if (fresh.loadFile(sources_.long_actions_file, errors)) {
    report.append(sim.reloadLongActions(std::move(fresh), sources_.long_actions_file));
  } else {
    appendAll(report.errors, errors);
    report.refused.push_back("long actions");
  }
}

void DefinitionSet::loadInfluences(Simulation& sim, DefinitionReport& report) const {
  InfluenceSet fresh;
  std::vector<std::string> errors;
  if (fresh.loadFile(sources_.influences_file, errors)) {
    report.append(sim.reloadInfluences(fresh, sources_.influences_file));
  } else {
    appendAll(report.errors, errors);
    report.refused.push_back("influences");
  }
}

DefinitionReport DefinitionSet::load(Simulation& sim, DefinitionLoad how) {
  DefinitionReport report;
  if (due(sources_.archetypes_dir, ".json", true, how, archetypes_) && how != DefinitionLoad::kFirst) {
    ArchetypeSet fresh;
    std::vector<std::string> errors;
    if (fresh.loadDirectory(sources_.archetypes_dir, errors)) {
      report.append(sim.reloadArchetypes(fresh));
    } else {
      report.errors.insert(report.errors.end(), errors.begin(), errors.end());
      report.refused.push_back("archetypes");
    }
  }
  if (fileDue(sources_.long_actions_file, how, long_actions_) && how != DefinitionLoad::kFirst) {
    loadLongActions(sim, report);
  }
  if (fileDue(sources_.influences_file, how, influences_) && how != DefinitionLoad::kFirst) {
    loadInfluences(sim, report);
  }
  SourceDirRead read;
  if (due(sources_.behavior_trees_dir, ".xml", true, how, behavior_trees_) &&
      readAll(sources_.behavior_trees_dir, ".xml", SourceDirDepth::kRecursive, "behavior trees",
              report, read)) {
    report.append(sim.loadBehaviorTrees(read.files));
  }
  if (due(sources_.goap_dir, ".json", false, how, planner_domains_) &&
      readAll(sources_.goap_dir, ".json", SourceDirDepth::kTopLevel, "planner domains", report,
              read)) {
    std::vector<std::pair<std::string, std::string>> files;
    for (SourceFile& f : read.files) files.emplace_back(std::move(f.name), std::move(f.text));
    // What the running planners counted goes to disk first, so the new set starts from it.
    const Status saved = how == DefinitionLoad::kFirst ? Status{} : sim.savePlannerStatistics();
    if (saved.isOk()) {
      report.append(sim.loadPlannerDomains(files, sources_.goap_statistics_dir));
    } else {
      report.errors.push_back(saved.message());
      report.refused.push_back("planner domains");
    }
  }
  if (due(sources_.selection_trees_dir, ".xml", true, how, selection_trees_) &&
      readAll(sources_.selection_trees_dir, ".xml", SourceDirDepth::kRecursive,
              "selection trees", report, read)) {
    report.append(sim.loadSelectionTrees(read.files));
  }
  return report;
}

}  // namespace npc
