// DefinitionSet: the definitions a simulation runs — archetypes, long actions, influences,
// behavior trees, planner domains, selection trees — with the directories and files they
// come from, loaded in one order and reported in one DefinitionReport. Start-up, the
// daemon's poll, the ReloadDefinitions call and `npcd check` are each one call to load().
//
// Order: archetypes, long actions, influences, behavior trees, planner domains, selection
// trees. Archetypes name long actions, trees and planners for their behaviors; the
// selection trees come last because the behaviors they select are checked against
// archetypes whose trees and planners are then in place. The simulation is built with its
// archetypes, long actions and influences, so a first load only notes their files; later
// loads apply what can change live (Simulation::reloadArchetypes, reloadLongActions,
// reloadInfluences).
//
// Each kind is all or nothing once something is loaded: a new set with an error is refused
// and the running one stays. On the first load (DefinitionLoad::kFirst) there is nothing
// to keep, so trees without errors load despite a broken file; a kind that loads nothing
// at all is `refused`, and the daemon does not start on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npc {

class Simulation;

// Config: where each kind is read from ("" = that kind is not used).
struct DefinitionSources {
  std::string behavior_trees_dir;   // *.xml, recursively
  std::string goap_dir;             // *.json, top level only
  std::string goap_statistics_dir;  // "" = planner statistics off
  std::string selection_trees_dir;  // *.xml, recursively
  std::string archetypes_dir;       // *.json, recursively
  std::string long_actions_file;    // one JSON file
  std::string influences_file;      // one JSON file
  bool empty() const {
    return behavior_trees_dir.empty() && goap_dir.empty() && selection_trees_dir.empty() &&
           archetypes_dir.empty() && long_actions_file.empty() && influences_file.empty();
  }
};

enum class DefinitionLoad : uint8_t {
  kFirst,    // start-up, `npcd check`: every kind, healthy trees despite a broken file
  kAll,      // ReloadDefinitions: every kind read again
  kChanged,  // the poll: only kinds whose files changed since they were last read
};

// What a load did. Messages read "file:line: message" (JSON files: "file: /pointer:
// message"), the file named with its definitions directory ("goap/guard.json").
struct DefinitionReport {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::vector<std::string> loaded;   // one line per kind now running a new set
  std::vector<std::string> refused;  // kinds whose new set was refused ("planner domains")
  size_t behavior_trees = 0;         // loaded after this load, of the kinds it touched
  size_t planner_domains = 0;
  size_t selection_trees = 0;

  bool ok() const { return errors.empty(); }
  // False when the load looked at nothing (kChanged with nothing changed).
  bool touched() const { return !loaded.empty() || !refused.empty(); }
  // Errors, then warnings, one per line, no trailing newline.
  std::string text() const;
  // A log line: what loaded, what was refused ("behavior trees: 4 trees; planner domains
  // refused").
  std::string summary() const;
  void append(const DefinitionReport& other);
  // Records a kind's outcome: its new set runs ("behavior trees: 4 trees") or was refused.
  void outcome(const std::string& kind, bool installed, const std::string& what);
};

// "ContinuousBaking, Smelting": the names a report line lists, or "none".
std::string nameList(const std::vector<std::string>& names);

class DefinitionSet {
 public:
  DefinitionSet() = default;
  explicit DefinitionSet(DefinitionSources sources) : sources_(std::move(sources)) {}

  const DefinitionSources& sources() const { return sources_; }
  // Loads into `sim` in the order above. Tick thread (or before the first tick).
  DefinitionReport load(Simulation& sim, DefinitionLoad how);

 private:
  struct Watched {
    std::string fingerprint;  // of the files when last read; "" = never read
  };
  bool due(const std::string& dir, const char* extension, bool recursive, DefinitionLoad how,
           Watched& watched) const;
  bool fileDue(const std::string& file, DefinitionLoad how, Watched& watched) const;
  void loadLongActions(Simulation& sim, DefinitionReport& report) const;
  void loadInfluences(Simulation& sim, DefinitionReport& report) const;

  DefinitionSources sources_;
  Watched archetypes_, long_actions_, influences_, behavior_trees_, planner_domains_, selection_trees_;
};

}  // namespace npc
