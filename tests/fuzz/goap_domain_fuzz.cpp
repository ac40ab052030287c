// GOAP domain files (config/goap/*.json, core/goap/domain_loader.h): parsed, validated and
// compiled to a domain.
#include "goap/domain_loader.h"
#include "json_fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::goap::GoapLibrary library;
  npc::goap::GoapDomain domain;
  npc::goap::DomainLoader loader(library, "goap/fuzz.json");
  loader.load(npc::fuzz::inputText(data, size), domain);
  return 0;
}
