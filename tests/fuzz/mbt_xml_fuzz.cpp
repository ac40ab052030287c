// Modular behavior tree XML (config/behavior_trees, core/mbt). When the tree loads, an
// agent runs it for a while against the scripted host of the MBT tests: its signals come
// back as events, its actions finish after 0.3 s. Lua scripts run under their instruction
// budget, so a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "mbt_test_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::test::MbtFixture f;
  f.host.record_logs = false;
  const std::string xml(reinterpret_cast<const char*>(data), size);
  if (!f.library.loadSources({{"behavior_trees/Fuzz.xml", xml}}).ok()) return 0;
  if (!f.library.bind(f.agent, "Fuzz", f.host.view.id, 1).isOk()) return 0;
  f.event("OnEnemySeen");
  f.play(30);
  f.event("OnTargetLost");
  f.play(10);
  return 0;
}
