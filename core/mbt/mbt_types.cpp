#include "mbt/mbt_types.h"

namespace npc {

std::string_view toString(MbtStatus status) {
  switch (status) {
    case MbtStatus::kRunning: return "running";
    case MbtStatus::kSuccess: return "success";
    case MbtStatus::kFailure: return "failure";
  }
  return "?";
}

std::string_view toString(MbtSignalScope scope) {
  switch (scope) {
    case MbtSignalScope::kSelf: return "Sender";
    case MbtSignalScope::kGroup: return "Group";
    case MbtSignalScope::kGroupExcludingSender: return "GroupExcludingSender";
  }
  return "?";
}

std::string_view toString(MbtLogKind kind) {
  switch (kind) {
    case MbtLogKind::kStart: return "start";
    case MbtLogKind::kSuccess: return "success";
    case MbtLogKind::kFailure: return "failure";
    case MbtLogKind::kMessage: return "message";
    case MbtLogKind::kBreakpoint: return "breakpoint";
    case MbtLogKind::kError: return "error";
    case MbtLogKind::kRootFinished: return "root_finished";
    case MbtLogKind::kReloaded: return "reloaded";
  }
  return "?";
}

}  // namespace npc
