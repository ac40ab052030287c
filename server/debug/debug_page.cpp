#include "debug/debug_page.h"

namespace npc {

DebugPage::DebugPage(Simulation& sim, const StatsBoard& stats, AccessControl access)
    : api_(sim, stats, events_, health_, std::move(access)),
      http_([this](const HttpRequest& request, HttpResponder respond) {
        api_.handle(request, std::move(respond));
      }) {}

DebugPage::~DebugPage() { stop(); }

bool DebugPage::start(const std::string& listen, std::string& error) {
  return http_.start(listen, error);
}

}  // namespace npc
