// Result of an operation that can fail in an expected way (bad input, unknown id).
// Exceptions never cross the tick loop; core returns a Status instead.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace npc {

enum class StatusCode : uint8_t {
  kOk,
  kInvalidArgument,     // malformed request or definition
  kNotFound,            // unknown id
  kAlreadyExists,       // duplicate spawn
  kFailedPrecondition,  // valid request in the wrong state
  kResourceExhausted,   // a bounded pool or buffer is full
  kUnavailable,         // shutting down
  kPermissionDenied,    // the caller does not own what it tried to change
};

std::string_view toString(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return {}; }

  bool isOk() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace npc
