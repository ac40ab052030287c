// The daemon's config file (config/npcd.json, server/config.h).
#include <string>
#include <vector>

#include "config.h"
#include "json_fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::DaemonConfig config;
  std::vector<std::string> errors;
  npc::parseConfig("npcd.json", std::string(npc::fuzz::inputText(data, size)), "/etc/npcd", config,
                   errors);
  return 0;
}
