// ConfigReload: the daemon's config file, read again while it runs. What can change live is
// applied: perception tuning (seed 000's ai_SOM_SPEED is the game's difficulty; also the
// coefficient decay and the suspicious threshold). Every other key that changed is named, to
// take effect at the next start. A file that no longer loads changes nothing and says why.
//
// poll() reads the file and compares it with the text it last accepted: the daemon calls it
// on its definitions poll (definitions_poll_s) and at once on SIGHUP. Tick thread only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"
#include "sim/commands.h"

namespace npc {

struct ConfigChange {
  std::optional<SetPerceptionTuning> tuning;  // the live part, set when it changed (no reply)
  std::vector<std::string> needs_restart;     // keys that changed, e.g. "tick_hz", "perception/memory"
  std::vector<std::string> errors;            // the file did not load: nothing applies
};

class ConfigReload {
 public:
  // `running`: the configuration the daemon started with, loaded from `path`.
  ConfigReload(std::string path, const DaemonConfig& running);

  // nullopt when the file's text is unchanged since the last accepted one (or unreadable
  // as before); otherwise what changed. An accepted change becomes the new baseline.
  std::optional<ConfigChange> poll();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string seen_;              // the text last looked at (a refused file is reported once)
  nlohmann::json accepted_;       // the JSON of the text last accepted
  PerceptionConfig perception_;   // the perception tuning of that text
};

}  // namespace npc
