// The differences between two protobuf messages, as text ("" when they are equal): what the
// snapshot tests compare captures with, so that a failure says which field differs.
#pragma once

#include <string>

#include <google/protobuf/message.h>
#include <google/protobuf/util/message_differencer.h>

namespace npc::test {

inline std::string diff(const google::protobuf::Message& a, const google::protobuf::Message& b) {
  std::string report;
  google::protobuf::util::MessageDifferencer differ;
  differ.ReportDifferencesToString(&report);
  differ.Compare(a, b);
  return report;
}

}  // namespace npc::test
